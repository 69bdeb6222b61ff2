import Foundation
import Waypoint

/// Replaces personal data in snapshots by stable hashes, for `export --redact`, so that a store can
/// be shared while the shape of its navigation stays visible.
///
/// In every route payload each value is replaced and each key is kept: object keys (field names,
/// enum case names), array lengths and nesting stay, so a redacted route still shows which case and
/// fields it had. Values keep their JSON type where that is cheap: integers become other integers,
/// numbers other numbers, strings other strings (a UUID another UUID); booleans and `null` carry
/// at most one bit and are kept. Scene ids, app builds and quarantine details are replaced too.
/// Tags, stack names, versions and dates are kept. The same value always gives the same hash, in
/// one export and across exports, so equal values stay visibly equal.
///
/// The hashes are unsalted SHA-256: they hide values from reading, but a value from a small set
/// (a small integer id, a common name) can be found again by hashing candidates.
struct Redactor: Sendable {
  var limits: InputLimits
  /// The hashes of the values seen so far, shared by copies of this redactor.
  let cache = RedactionCache()

  /// `scene-` and ``hash(_:_:)`` of kind `scene`, written without the strings in between (one
  /// for every snapshot an export writes).
  func scene(_ id: String) -> String {
    var id = id
    return id.withUTF8 { value in
      Self.scenePrefix.withUnsafeBytes { prefix in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
          SHA256.hash(prefix, UnsafeRawBufferPointer(value), into: digest.baseAddress!)
          return String(unsafeUninitializedCapacity: 18) { text in
            for (index, byte) in "scene-".utf8.enumerated() { text[index] = byte }
            for index in 0..<12 {
              let byte = digest[index / 2]
              let nibble = index.isMultiple(of: 2) ? byte >> 4 : byte & 0xF
              text[6 + index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            return 18
          }
        }
      }
    }
  }

  private static let scenePrefix = Array("waypoint-redact/scene/".utf8)

  func build(_ build: String) -> String { "build-" + hash("build", build) }

  func text(_ text: String) -> String { "redacted-" + hash("text", text) }

  /// Why a snapshot cannot be read, without any stored value: the error's kind, the field path and
  /// the numbers of sizes, limits and versions are kept; a field's value, a parser's quote of the
  /// input and a decoder's explanation (which may quote the value) are left out.
  func reason(_ error: SnapshotFormatError) -> String {
    switch error.code {
    case .tooLarge, .nestingTooDeep, .notAnArray, .elementNotString, .oddElementCount,
      .missingField, .newerFormat:
      error.description
    case .malformedJSON: "malformed JSON (details left out by --redact)"
    case .invalidField:
      "invalid field \(error.field ?? "?") (its value left out by --redact)"
    // A code added later may quote stored data: only its name is certain to be safe.
    default: "\(error.code) (details left out by --redact)"
    }
  }

  /// The snapshot with every route payload and its app build redacted.
  func snapshot(_ snapshot: SceneSnapshot) -> SceneSnapshot {
    var copy = snapshot.mapSlots { _, slot in
      guard case .route(let record) = slot else { return .keep }
      return .replace(route(record))
    }
    copy.metadata.appBuild = snapshot.metadata.appBuild.map(build)
    return copy
  }

  func route(_ record: RouteRecord) -> RouteRecord {
    var copy = record
    copy.json = payload(record.json)
    return copy
  }

  /// A route's JSON with every value replaced. Text that is not JSON (or over the limits) is
  /// replaced whole, as one string.
  ///
  /// The payloads Waypoint writes are redacted straight from their bytes (``fastPayload(_:)``);
  /// anything that reader is not sure of goes through ``payloadByValue(_:)``, which parses the
  /// payload into a ``/Waypoint/JSONValue`` and writes it back with `JSONEncoder`. Both give the same
  /// text (tests compare them).
  func payload(_ json: String) -> String {
    fastPayload(json) ?? payloadByValue(json)
  }

  /// ``payload(_:)`` through a ``/Waypoint/JSONValue`` parsed by `JSONDecoder` and written by
  /// `JSONEncoder` (sorted keys, slashes unescaped): the reference the fast way must match.
  func payloadByValue(_ json: String) -> String {
    guard let value = try? JSONValue(parsing: json, limits: limits) else {
      return JSONValue.string("~" + hash("value", json)).jsonText
    }
    return redact(value).jsonText
  }

  /// ``payload(_:)`` read straight from the bytes with ``/Waypoint/StrictJSONReader``, writing what
  /// `JSONEncoder` writes for the redacted value: object members sorted by the UTF-8 bytes of their
  /// keys, keys escaped as `JSONEncoder` escapes them, integers plainly. `nil` when the payload is
  /// not in the reader's strict subset, is over the limits, or holds a number that is not a plain
  /// integer of at most 18 digits (`JSONDecoder`'s reading of those is its own).
  func fastPayload(_ json: String) -> String? {
    var json = json
    return json.withUTF8 { utf8 -> String? in
      guard utf8.count <= limits.maxPayloadBytes else { return nil }
      let bytes = UnsafeRawBufferPointer(utf8)
      var reader = StrictJSONReader(bytes, maxDepth: limits.maxNestingDepth)
      var output: [UInt8] = []
      output.reserveCapacity(utf8.count + 16)
      do throws(StrictJSONReader.Unsure) {
        try redactValue(&reader, bytes, into: &output)
        reader.skipSpace()
        guard reader.atEnd else { return nil }
      } catch {
        return nil
      }
      return String(decoding: output, as: UTF8.self)
    }
  }

  /// Reads one value and appends its redacted JSON to `output`.
  private func redactValue(
    _ reader: inout StrictJSONReader, _ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]
  ) throws(StrictJSONReader.Unsure) {
    reader.skipSpace()
    guard !reader.atEnd else { throw StrictJSONReader.Unsure() }
    switch bytes[reader.index] {
    case UInt8(ascii: "{"):
      var members: [(key: String, value: [UInt8])] = []
      try reader.object { reader, key throws(StrictJSONReader.Unsure) in
        var value: [UInt8] = []
        try redactValue(&reader, bytes, into: &value)
        members.append((key, value))
      }
      // JSONEncoder's `.sortedKeys` order outside Apple's compatibility mode: the UTF-8 bytes.
      members.sort { SceneSnapshot.precedes($0.key, $1.key) }
      output.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Self.appendString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        output.append(contentsOf: member.value)
      }
      output.append(UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      output.append(UInt8(ascii: "["))
      var first = true
      try reader.array { reader throws(StrictJSONReader.Unsure) in
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        try redactValue(&reader, bytes, into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case UInt8(ascii: "\""):
      let text = try reader.string()
      output.append(UInt8(ascii: "\""))
      output.append(contentsOf: (Self.isUUID(text) ? uuid(text) : "~" + hash("value", text)).utf8)
      output.append(UInt8(ascii: "\""))
    case UInt8(ascii: "t"):
      try reader.skipValue()
      output.append(contentsOf: "true".utf8)
    case UInt8(ascii: "f"):
      try reader.skipValue()
      output.append(contentsOf: "false".utf8)
    case UInt8(ascii: "n"):
      try reader.skipValue()
      output.append(contentsOf: "null".utf8)
    default:
      let start = reader.index
      try reader.number()
      // A plain integer of at most 18 digits is an Int64 to JSONDecoder; anything else is left to
      // it.
      var value: Int64 = 0
      var negative = false
      var digits = 0
      for offset in start..<reader.index {
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "-") where offset == start: negative = true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
          digits += 1
          guard digits <= 18 else { throw StrictJSONReader.Unsure() }
          value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        default: throw StrictJSONReader.Unsure()
        }
      }
      output.append(
        contentsOf: String(integer(hash("value", String(negative ? -value : value)))).utf8)
    }
  }

  /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it with
  /// `.withoutEscapingSlashes`: `"` and `\` escaped, `\b \f \n \r \t` by name, other control
  /// characters as `\u00XX` (lowercase), everything else as UTF-8.
  static func appendString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    appendEscaped(text, to: &output)
    output.append(UInt8(ascii: "\""))
  }

  /// Appends the contents of ``appendString(_:to:)`` (without the quotes).
  static func appendEscaped(_ text: String, to output: inout [UInt8]) {
    appendEscapedBytes(text.utf8, to: &output)
  }

  /// Appends UTF-8 `bytes` escaped as ``appendString(_:to:)`` escapes them, without quotes, copying
  /// the runs that need no escape at once.
  static func appendEscaped(bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    var run = 0
    for index in 0..<bytes.count {
      let byte = bytes[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
      appendEscapedBytes(CollectionOfOne(byte), to: &output)
      run = index + 1
    }
    output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[run...]))
  }

  /// Appends UTF-8 `bytes` escaped as ``appendString(_:to:)`` escapes them, without quotes.
  static func appendEscapedBytes(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        output.append(UInt8(ascii: "\\"))
        output.append(byte)
      case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        let digits = Array("0123456789abcdef".utf8)
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30])
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0xF)])
      default: output.append(byte)
      }
    }
  }

  func redact(_ value: JSONValue) -> JSONValue {
    switch value {
    case .null, .bool: value
    case .integer(let number): .integer(integer(hash("value", String(number))))
    case .unsignedInteger(let number): .integer(integer(hash("value", String(number))))
    case .double(let number): .double(Double(integer(hash("value", "\(number)")) % 1_000_000) / 100)
    case .string(let text): .string(Self.isUUID(text) ? uuid(text) : "~" + hash("value", text))
    case .array(let items): .array(items.map(redact))
    case .object(let members): .object(members.mapValues(redact))
    }
  }

  /// 12 hexadecimal digits of SHA-256 over the kind and the value. The hashes of values are kept
  /// in ``cache`` (by their bytes), as the same values come back in snapshot after snapshot.
  private func hash(_ kind: String, _ value: String) -> String {
    let key = kind == "value" ? Array(value.utf8) : nil
    if let key, let known = cache.hash(of: key) { return known }
    var prefix = "waypoint-redact/\(kind)/"
    var value = value
    let hex = prefix.withUTF8 { prefix in
      value.withUTF8 { value in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
          SHA256.hash(
            UnsafeRawBufferPointer(prefix), UnsafeRawBufferPointer(value),
            into: digest.baseAddress!)
          return SHA256.hex(Array(digest), count: 12)
        }
      }
    }
    if let key { cache.remember(hex, for: key) }
    return hex
  }

  /// A non-negative integer below one billion, from hexadecimal digits.
  private func integer(_ hex: String) -> Int64 {
    Int64((UInt64(hex.prefix(15), radix: 16) ?? 0) % 1_000_000_000)
  }

  /// Another UUID, in the same letter case.
  func uuid(_ text: String) -> String {
    let digits = Array(SHA256.hex("waypoint-redact/value/\(text.uppercased())"))
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
    let joined = groups.joined(separator: "-")
    return text == text.lowercased() ? joined : joined.uppercased()
  }

  static func isUUID(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count == 36 else { return false }
    for (index, scalar) in scalars.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard scalar == "-" else { return false }
      } else if !scalar.properties.isASCIIHexDigit {
        return false
      }
    }
    return true
  }
}

/// The hashes a ``Redactor`` computed for route values, by the value's UTF-8 bytes (not by `String`
/// equality, under which two spellings of "é" are one key but hash apart). Bounded: it is emptied
/// when it holds 65,536 values, so that an export's memory stays constant.
final class RedactionCache: @unchecked Sendable {
  private let lock = NSLock()
  private var hashes: [[UInt8]: String] = [:]

  func hash(of value: [UInt8]) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return hashes[value]
  }

  func remember(_ hash: String, for value: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    if hashes.count >= 1 << 16 { hashes.removeAll(keepingCapacity: true) }
    hashes[value] = hash
  }
}
