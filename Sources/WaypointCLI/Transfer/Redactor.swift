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

  /// The snapshot with every route payload and its app build redacted, and a split-view name this
  /// build does not know (it can be any stored text) replaced by its hash.
  func snapshot(_ snapshot: SceneSnapshot) -> SceneSnapshot {
    var copy = snapshot.mapSlots { _, slot in
      guard case .route(let record) = slot else { return .keep }
      return .replace(route(record))
    }
    copy.metadata.appBuild = snapshot.metadata.appBuild.map(build)
    if let visibility = copy.split?.columnVisibility, !visibility.isKnown {
      copy.split?.columnVisibility = ColumnVisibility(rawValue: text(visibility.rawValue))
    }
    if let column = copy.split?.preferredCompactColumn, !column.isKnown {
      copy.split?.preferredCompactColumn = SplitColumn(rawValue: text(column.rawValue))
    }
    return copy
  }

  func route(_ record: RouteRecord) -> RouteRecord {
    var copy = record
    copy.json = payload(record.json)
    return copy
  }

  /// A route's JSON with every value replaced, written as `JSONEncoder` writes the redacted value
  /// (object members sorted by the UTF-8 bytes of their keys, the first of duplicate keys kept).
  /// Text that `JSONValue` does not read (not JSON, over the limits, a string or number
  /// `JSONDecoder` refuses) is replaced whole, as one string.
  ///
  /// Read with the one scanner (``/Waypoint/JSONStructure``); `RedactionDifferentialTests` check it
  /// against parsing the payload into a ``/Waypoint/JSONValue`` and writing its redaction with
  /// `JSONEncoder`.
  func payload(_ json: String) -> String {
    var output: [UInt8] = []
    if let structure = try? JSONStructure(
      scanning: json.utf8, byteLimit: limits.maxPayloadBytes, maxDepth: limits.maxNestingDepth),
      write(structure.root, of: structure, into: &output)
    {
      return String(decoding: output, as: UTF8.self)
    }
    return JSONValue.string("~" + hash("value", json)).jsonText
  }

  /// Appends the redaction of `value` to `output`; `false` when a string or a number in it does
  /// not read as `JSONValue` reads it (then the payload is replaced whole).
  private func write(
    _ value: JSONStructure.Value, of json: JSONStructure, into output: inout [UInt8]
  ) -> Bool {
    switch json.kind(value) {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool: output.append(contentsOf: (json.bool(value) == true ? "true" : "false").utf8)
    case .string:
      guard let text = try? json.string(value) else { return false }
      Self.appendString(Self.isUUID(text) ? uuid(text) : "~" + hash("value", text), to: &output)
    case .number:
      guard let redacted = number(value, of: json) else { return false }
      output.append(contentsOf: redacted.utf8)
    case .array:
      output.append(UInt8(ascii: "["))
      for (index, element) in json.elements(of: value).enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        guard write(element, of: json, into: &output) else { return false }
      }
      output.append(UInt8(ascii: "]"))
    case .object:
      // As a keyed container reads them: every key, the first of equal keys (found in a set once
      // there are many).
      var members: [(key: String, value: JSONStructure.Value)] = []
      var keys: Set<String>?
      for (key, member) in json.members(of: value) {
        guard let name = try? json.string(key) else { return false }
        if keys?.insert(name).inserted ?? !members.contains(where: { $0.key == name }) {
          members.append((name, member))
        }
        if keys == nil, members.count > 16 { keys = Set(members.map(\.key)) }
      }
      // JSONEncoder's `.sortedKeys` order outside Apple's compatibility mode: the UTF-8 bytes.
      members.sort { SceneSnapshot.precedes($0.key, $1.key) }
      output.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Self.appendString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        guard write(member.value, of: json, into: &output) else { return false }
      }
      output.append(UInt8(ascii: "}"))
    }
    return true
  }

  /// The redaction of a number as `JSONValue` reads it: an integer (an `Int64`, else a `UInt64`)
  /// becomes another integer, any other number another number; `nil` when it does not read.
  private func number(_ value: JSONStructure.Value, of json: JSONStructure) -> String? {
    if let plain = json.plainInteger(value) ?? json.read(value, as: Int64.self) {
      return String(integer(hash("value", String(plain))))
    }
    if let unsigned = json.read(value, as: UInt64.self) {
      return String(integer(hash("value", String(unsigned))))
    }
    guard let double = json.read(value, as: Double.self) else { return nil }
    return JSONValue.double(Double(integer(hash("value", "\(double)")) % 1_000_000) / 100).jsonText
  }

  /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it with
  /// `.withoutEscapingSlashes`: `"` and `\` escaped, `\b \f \n \r \t` by name, other control
  /// characters as `\u00XX` (lowercase), everything else as UTF-8.
  static func appendString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
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
    output.append(UInt8(ascii: "\""))
  }

  /// 12 hexadecimal digits of SHA-256 over the kind and the value. The hashes of short values are
  /// kept in ``cache`` (by their bytes), as the same values come back in snapshot after snapshot.
  func hash(_ kind: String, _ value: String) -> String {
    let key =
      kind == "value" && value.utf8.count <= RedactionCache.maxValueBytes ? Array(value.utf8) : nil
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
  func integer(_ hex: String) -> Int64 {
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
    // 36 ASCII characters are 36 bytes.
    guard text.utf8.count == 36 else { return false }
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
/// equality, under which two spellings of "é" are one key but hash apart). Bounded, so that an
/// export's memory stays constant: it keeps values of at most ``maxValueBytes`` (names, ids; a
/// long value costs more to keep than to hash again), and is emptied when it holds 65,536: at most
/// 16 MiB of values.
final class RedactionCache: @unchecked Sendable {
  /// The longest value kept.
  static let maxValueBytes = 256
  private let lock = NSLock()
  private var hashes: [[UInt8]: String] = [:]

  func hash(of value: [UInt8]) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return hashes[value]
  }

  /// How many values it keeps.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return hashes.count
  }

  func remember(_ hash: String, for value: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    if hashes.count >= 1 << 16 { hashes.removeAll(keepingCapacity: true) }
    hashes[value] = hash
  }
}
