import Foundation
import Waypoint

/// `export --redact` for one export: redacts whole stored documents on their bytes, giving the
/// bytes `redactor.snapshot(snapshot).encoded()` gives for the decoded snapshot.
///
/// A document recognised as canonical (``/Waypoint/CanonicalDocument``: exactly what `encoded()`
/// writes) is copied with its app build and each route payload replaced; anything else is left to
/// the caller (`nil`), which decodes it. A payload whose values are plain (strings without escapes,
/// integers of at most 18 digits, `true`, `false`, `null`) and whose object keys are ASCII without
/// escapes, in increasing order, is redacted in one pass; any other payload goes through
/// ``Redactor/payload(_:)``. The hashes of values are remembered by their bytes in a table of a
/// fixed size, so that the values that come back in every snapshot are hashed once; so is the
/// last app build's.
///
/// A plain payload is redacted straight from the document's escaped bytes (the contents of the
/// route's `json` string as they stand, `\"` for each quote), written escaped again as it goes:
/// its strings hold no escape, so in the document they are the payload's own bytes, and the
/// whitespace between its values is a space or an escaped tab, line feed or return. A payload that
/// pass is not sure of is unescaped first and read as above (tests compare the two ways).
///
/// Not for concurrent use: one instance per export.
final class DocumentRedactor {
  let redactor: Redactor
  /// Whether plain payloads are redacted on their escaped bytes (`false`: always unescaped first,
  /// the way tests compare the pass over escaped bytes with).
  let overEscapedBytes: Bool
  /// The payloads redacted on their escaped bytes, and all the payloads redacted (for tests).
  private(set) var escapedPayloads = 0
  private(set) var payloads = 0
  /// The buffers and the table, moved out of the instance while a document is redacted (so that
  /// no access to them is checked at run time).
  private var kept = State()
  private static let tableSize = 1 << 14
  private static let prefix = Array("waypoint-redact/value/".utf8)

  /// The first 8 bytes of digests by the bytes of the value hashed, in a fixed number of slots.
  fileprivate typealias DigestTable = [(key: [UInt8], digest: UInt64)?]

  fileprivate struct State {
    var output: [UInt8] = []
    var unescaped: [UInt8] = []
    var redacted: [UInt8] = []
    /// The first 8 bytes of the digest of `waypoint-redact/value/` and the key, by the key's
    /// bytes.
    var hashes: DigestTable = Array(repeating: nil, count: tableSize)
    /// The last app build met, as the document holds it (escaped), and its redacted text, escaped.
    var build: (escaped: [UInt8], redacted: [UInt8])?
    var escapedPayloads = 0
  }

  init(_ redactor: Redactor, overEscapedBytes: Bool = true) {
    self.redactor = redactor
    self.overEscapedBytes = overEscapedBytes
  }

  /// The redacted document, or `nil` when `document` is not canonical within `limits`.
  func document(_ document: Data, limits: InputLimits) -> Data? {
    withRedacted(document, limits: limits) { Data($0) }
  }

  /// Calls `body` with the bytes of the redacted document (valid during the call only), or
  /// returns `nil` without calling it when `document` is not canonical within `limits`.
  func withRedacted<Result>(
    _ document: Data, limits: InputLimits, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result? {
    var state = State(output: [], unescaped: [], redacted: [], hashes: [])
    swap(&state, &kept)
    defer { swap(&state, &kept) }
    let redacted = document.withUnsafeBytes { bytes -> Bool in
      guard let canonical = CanonicalDocument(bytes, at: 0, limits: limits),
        canonical.end == bytes.count
      else { return false }
      state.output.removeAll(keepingCapacity: true)
      state.output.reserveCapacity(bytes.count + 256)
      var copied = 0
      if let build = canonical.appBuild {
        state.output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[copied..<build.lowerBound]))
        let escaped = UnsafeRawBufferPointer(rebasing: bytes[build])
        if let known = state.build, known.escaped.elementsEqual(escaped) {
          state.output.append(contentsOf: known.redacted)
        } else {
          var text: [UInt8] = []
          Redactor.appendEscaped(redactor.build(CanonicalDocument.string(bytes, build)), to: &text)
          state.build = (Array(escaped), text)
          state.output.append(contentsOf: text)
        }
        copied = build.upperBound
      }
      for range in canonical.payloads {
        state.output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
        payload(UnsafeRawBufferPointer(rebasing: bytes[range]), limits: limits, &state)
        copied = range.upperBound
      }
      payloads += canonical.payloads.count
      state.output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[copied...]))
      return true
    }
    escapedPayloads = state.escapedPayloads
    guard redacted else { return nil }
    return state.output.withUnsafeBytes(body)
  }

  /// Appends the redacted payload of the escaped JSON string contents `escaped`, escaped again.
  private func payload(
    _ escaped: UnsafeRawBufferPointer, limits: InputLimits, _ state: inout State
  ) {
    if overEscapedBytes, escaped.count <= limits.maxPayloadBytes {
      // Unescaped, the payload is at most as long: within the limit too.
      let mark = state.output.count
      var scanner = EscapedPayload(bytes: escaped, maxDepth: limits.maxNestingDepth)
      do throws(PlainPayload.Unsure) {
        try scanner.value(into: &state.output, hashes: &state.hashes, redactor)
        scanner.skipSpace()
        if scanner.index == escaped.count {
          state.escapedPayloads += 1
          return
        }
      } catch {}
      state.output.removeSubrange(mark...)
    }
    CanonicalDocument.unescape(escaped, into: &state.unescaped)
    state.redacted.removeAll(keepingCapacity: true)
    var unescaped: [UInt8] = []
    swap(&unescaped, &state.unescaped)
    defer { swap(&unescaped, &state.unescaped) }
    let done = unescaped.withUnsafeBytes { text -> Bool in
      guard text.count <= limits.maxPayloadBytes else { return false }
      var scanner = PlainPayload(bytes: text, maxDepth: limits.maxNestingDepth)
      do throws(PlainPayload.Unsure) {
        try scanner.value(into: &state, redactor)
        scanner.skipSpace()
        return scanner.index == text.count
      } catch {
        return false
      }
    }
    if done {
      state.redacted.withUnsafeBytes { Redactor.appendEscaped(bytes: $0, to: &state.output) }
    } else {
      let text = String(decoding: unescaped, as: UTF8.self)
      Redactor.appendEscaped(redactor.payload(text), to: &state.output)
    }
  }
}

extension DocumentRedactor.State {
  /// The first 8 bytes of SHA-256 over `waypoint-redact/value/` and `value`, remembered.
  mutating func digest(_ value: UnsafeRawBufferPointer) -> UInt64 {
    DocumentRedactor.digest(value, in: &hashes)
  }

  /// Appends what the redactor writes for a string value without escapes: `"~` and 12 hexadecimal
  /// digits of the hash, or another UUID for a UUID.
  mutating func appendString(_ value: UnsafeRawBufferPointer, _ redactor: Redactor) {
    DocumentRedactor.appendString(value, escaped: false, redactor, hashes: &hashes, to: &redacted)
  }

  /// Appends what the redactor writes for an integer whose decimal text (as `String(value)` writes
  /// it) is `digits`: the hash's first 12 hexadecimal digits as a number, modulo one billion.
  mutating func appendInteger(_ digits: UnsafeRawBufferPointer) {
    DocumentRedactor.appendInteger(digits, hashes: &hashes, to: &redacted)
  }

  mutating func append(_ bytes: StaticString) { redacted.append(bytes) }

  mutating func append(_ byte: UInt8) { redacted.append(byte) }
}

extension DocumentRedactor {
  /// The first 8 bytes of SHA-256 over `waypoint-redact/value/` and `value`, remembered in
  /// `hashes`.
  fileprivate static func digest(_ value: UnsafeRawBufferPointer, in hashes: inout DigestTable)
    -> UInt64
  {
    // FNV-1a picks the slot; the key's bytes are compared in full.
    var mix: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in value { mix = (mix ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let slot = Int(truncatingIfNeeded: mix >> 3) & (hashes.count - 1)
    if let entry = hashes[slot], entry.key.count == value.count,
      entry.key.withUnsafeBytes({ key in
        value.isEmpty || memcmp(key.baseAddress!, value.baseAddress!, value.count) == 0
      })
    {
      return entry.digest
    }
    let digest = prefixDigest(value)
    hashes[slot] = (Array(value), digest)
    return digest
  }

  /// Appends what the redactor writes for a string value without escapes, between quotes (`\"`
  /// when `escaped`, in a payload written escaped): `~` and 12 hexadecimal digits of the hash, or
  /// another UUID for a UUID.
  fileprivate static func appendString(
    _ value: UnsafeRawBufferPointer, escaped: Bool, _ redactor: Redactor,
    hashes: inout DigestTable, to output: inout [UInt8]
  ) {
    if escaped { output.append(UInt8(ascii: "\\")) }
    output.append(UInt8(ascii: "\""))
    if value.count == 36, Redactor.isUUID(String(decoding: value, as: UTF8.self)) {
      // Hexadecimal digits and hyphens: nothing to escape.
      output.append(contentsOf: redactor.uuid(String(decoding: value, as: UTF8.self)).utf8)
    } else {
      let digest = digest(value, in: &hashes)
      output.append(UInt8(ascii: "~"))
      for shift in stride(from: 60, through: 16, by: -4) {
        let nibble = UInt8(truncatingIfNeeded: digest >> UInt64(shift)) & 0xF
        output.append(nibble < 10 ? 0x30 + nibble : 0x57 + nibble)
      }
    }
    if escaped { output.append(UInt8(ascii: "\\")) }
    output.append(UInt8(ascii: "\""))
  }

  /// Appends what the redactor writes for an integer whose decimal text (as `String(value)` writes
  /// it) is `digits`: the hash's first 12 hexadecimal digits as a number, modulo one billion.
  fileprivate static func appendInteger(
    _ digits: UnsafeRawBufferPointer, hashes: inout DigestTable, to output: inout [UInt8]
  ) {
    let value = (digest(digits, in: &hashes) >> 16) % 1_000_000_000
    // The decimal digits, written backwards in place (divisions by a constant only).
    var count = 1
    var rest = value / 10
    while rest > 0 {
      count += 1
      rest /= 10
    }
    let start = output.count
    output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
    output.withUnsafeMutableBufferPointer { buffer in
      var rest = value
      for place in stride(from: start + count - 1, through: start, by: -1) {
        buffer[place] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
        rest /= 10
      }
    }
  }
}

extension [UInt8] {
  fileprivate mutating func append(_ bytes: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount))
  }
}

extension DocumentRedactor {
  /// The first 8 bytes of SHA-256 over `waypoint-redact/value/` and `value`.
  fileprivate static func prefixDigest(_ value: UnsafeRawBufferPointer) -> UInt64 {
    prefix.withUnsafeBytes { prefix in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
        SHA256.hash(prefix, value, into: out.baseAddress!)
        var first: UInt64 = 0
        for index in 0..<8 { first = first << 8 | UInt64(out[index]) }
        return first
      }
    }
  }
}

/// Reads a payload whose values are all plain (see ``DocumentRedactor``), writing the redacted
/// value as it goes; throws ``Unsure`` at anything else.
private struct PlainPayload {
  struct Unsure: Error {}

  let bytes: UnsafeRawBufferPointer
  let maxDepth: Int
  var index = 0
  var depth = 0

  init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func expect(_ byte: UInt8) throws(Unsure) {
    guard take(byte) else { throw Unsure() }
  }

  mutating func value(into sink: inout DocumentRedactor.State, _ redactor: Redactor)
    throws(Unsure)
  {
    skipSpace()
    guard index < bytes.count else { throw Unsure() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      depth += 1
      guard depth <= maxDepth else { throw Unsure() }
      sink.append(UInt8(ascii: "{"))
      if !take(UInt8(ascii: "}")) {
        var previous: Range<Int>?
        repeat {
          skipSpace()
          let key = try string()
          // ASCII keys in increasing order: the order JSONEncoder sorts them in, and no two keys
          // that `String` finds equal.
          for offset in key where bytes[offset] >= 0x80 { throw Unsure() }
          if let previous {
            guard
              UnsafeRawBufferPointer(rebasing: bytes[previous]).lexicographicallyPrecedes(
                UnsafeRawBufferPointer(rebasing: bytes[key]))
            else { throw Unsure() }
            sink.append(UInt8(ascii: ","))
          }
          previous = key
          // An ASCII key without escapes holds no control character either: written as it is.
          sink.append(UInt8(ascii: "\""))
          for offset in key { sink.append(bytes[offset]) }
          sink.append(UInt8(ascii: "\""))
          try expect(UInt8(ascii: ":"))
          sink.append(UInt8(ascii: ":"))
          try value(into: &sink, redactor)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
      }
      sink.append(UInt8(ascii: "}"))
      depth -= 1
    case UInt8(ascii: "["):
      index += 1
      depth += 1
      guard depth <= maxDepth else { throw Unsure() }
      sink.append(UInt8(ascii: "["))
      if !take(UInt8(ascii: "]")) {
        var first = true
        repeat {
          if !first { sink.append(UInt8(ascii: ",")) }
          first = false
          try value(into: &sink, redactor)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
      }
      sink.append(UInt8(ascii: "]"))
      depth -= 1
    case UInt8(ascii: "\""):
      let range = try string()
      sink.appendString(UnsafeRawBufferPointer(rebasing: bytes[range]), redactor)
    case UInt8(ascii: "t"):
      try literal("true")
      sink.append("true")
    case UInt8(ascii: "f"):
      try literal("false")
      sink.append("false")
    case UInt8(ascii: "n"):
      try literal("null")
      sink.append("null")
    default:
      try integer(into: &sink)
    }
  }

  /// A string without escapes or control characters, of valid UTF-8; its contents' range.
  private mutating func string() throws(Unsure) -> Range<Int> {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unsure() }
    index += 1
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return start..<(index - 1)
      }
      guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw Unsure() }
      index += byte < 0x80 ? 1 : try utf8Sequence()
    }
    throw Unsure()
  }

  /// `-?(0|[1-9][0-9]*)` of at most 18 digits, not followed by a fraction or an exponent: an
  /// `Int64` to `JSONDecoder`, whose `String` is the same text (`-0` aside, left unsure).
  private mutating func integer(into sink: inout DocumentRedactor.State) throws(Unsure) {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    let digits = index - digitsStart
    guard digits > 0, digits <= 18, digits == 1 || bytes[digitsStart] != 0x30 else {
      throw Unsure()
    }
    guard !(digits == 1 && bytes[digitsStart] == 0x30 && digitsStart > start) else {
      throw Unsure()
    }
    if index < bytes.count {
      let next = bytes[index]
      guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { throw Unsure() }
    }
    sink.appendInteger(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
  }

  private mutating func literal(_ word: StaticString) throws(Unsure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw Unsure() }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw Unsure()
    }
    index += count
  }

  /// The length of the valid UTF-8 sequence of two to four bytes at `index` (`UTF8Sequence`).
  func utf8Sequence() throws(Unsure) -> Int {
    guard let length = UTF8Sequence.length(in: bytes, at: index) else { throw Unsure() }
    return length
  }
}

/// Reads a plain payload (see ``DocumentRedactor``) on its escaped bytes, as a canonical document
/// holds them between the quotes of a route's `json`, and appends the redacted payload escaped the
/// same way; throws at anything else, as ``PlainPayload`` does, and also at any escape but a quote
/// around a string or a tab, line feed or return between values (a string with an escape of its
/// own, which ``PlainPayload`` would refuse anyway).
///
/// In those bytes a string of the payload is `\"`, its contents, `\"`; its contents hold no
/// backslash, so they are the payload's own bytes, and what the redactor writes for them (a hash,
/// a UUID, the keys) needs no escape but the quotes.
private struct EscapedPayload {
  let bytes: UnsafeRawBufferPointer
  let maxDepth: Int
  var index = 0
  var depth = 0

  init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// Skips JSON whitespace as the document holds it: a space, or `\t`, `\n`, `\r`.
  @inline(__always)
  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20: index += 1
      case UInt8(ascii: "\\") where index + 1 < bytes.count:
        switch bytes[index + 1] {
        case UInt8(ascii: "t"), UInt8(ascii: "n"), UInt8(ascii: "r"): index += 2
        default: return
        }
      default: return
      }
    }
  }

  @inline(__always)
  private mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  @inline(__always)
  private mutating func expect(_ byte: UInt8) throws(PlainPayload.Unsure) {
    guard take(byte) else { throw PlainPayload.Unsure() }
  }

  mutating func value(
    into output: inout [UInt8], hashes: inout DocumentRedactor.DigestTable, _ redactor: Redactor
  ) throws(PlainPayload.Unsure) {
    skipSpace()
    guard index < bytes.count else { throw PlainPayload.Unsure() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      depth += 1
      guard depth <= maxDepth else { throw PlainPayload.Unsure() }
      output.append(UInt8(ascii: "{"))
      if !take(UInt8(ascii: "}")) {
        var previous: Range<Int>?
        repeat {
          skipSpace()
          let key = try string()
          // ASCII keys in increasing order, as ``PlainPayload`` takes them.
          for offset in key where bytes[offset] >= 0x80 { throw PlainPayload.Unsure() }
          if let previous {
            guard
              UnsafeRawBufferPointer(rebasing: bytes[previous]).lexicographicallyPrecedes(
                UnsafeRawBufferPointer(rebasing: bytes[key]))
            else { throw PlainPayload.Unsure() }
            output.append(UInt8(ascii: ","))
          }
          previous = key
          output.append(UInt8(ascii: "\\"))
          output.append(UInt8(ascii: "\""))
          for offset in key { output.append(bytes[offset]) }
          output.append(UInt8(ascii: "\\"))
          output.append(UInt8(ascii: "\""))
          output.append(UInt8(ascii: ":"))
          try expect(UInt8(ascii: ":"))
          try value(into: &output, hashes: &hashes, redactor)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
      }
      output.append(UInt8(ascii: "}"))
      depth -= 1
    case UInt8(ascii: "["):
      index += 1
      depth += 1
      guard depth <= maxDepth else { throw PlainPayload.Unsure() }
      output.append(UInt8(ascii: "["))
      if !take(UInt8(ascii: "]")) {
        var first = true
        repeat {
          if !first { output.append(UInt8(ascii: ",")) }
          first = false
          try value(into: &output, hashes: &hashes, redactor)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
      }
      output.append(UInt8(ascii: "]"))
      depth -= 1
    case UInt8(ascii: "\\"):
      let range = try string()
      DocumentRedactor.appendString(
        UnsafeRawBufferPointer(rebasing: bytes[range]), escaped: true, redactor, hashes: &hashes,
        to: &output)
    case UInt8(ascii: "t"):
      try literal("true")
      output.append("true")
    case UInt8(ascii: "f"):
      try literal("false")
      output.append("false")
    case UInt8(ascii: "n"):
      try literal("null")
      output.append("null")
    default:
      let digits = try integer()
      DocumentRedactor.appendInteger(
        UnsafeRawBufferPointer(rebasing: bytes[digits]), hashes: &hashes, to: &output)
    }
  }

  /// `\"`, contents without a backslash or a control character, of valid UTF-8, `\"`: the
  /// contents' range.
  private mutating func string() throws(PlainPayload.Unsure) -> Range<Int> {
    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
      bytes[index + 1] == UInt8(ascii: "\"")
    else { throw PlainPayload.Unsure() }
    index += 2
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        // Only the closing quote: any other escape is the string's own.
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") else {
          throw PlainPayload.Unsure()
        }
        index += 2
        return start..<(index - 2)
      }
      guard byte >= 0x20, byte != UInt8(ascii: "\"") else { throw PlainPayload.Unsure() }
      if byte < 0x80 {
        index += 1
      } else {
        guard let length = UTF8Sequence.length(in: bytes, at: index) else {
          throw PlainPayload.Unsure()
        }
        index += length
      }
    }
    throw PlainPayload.Unsure()
  }

  /// `-?(0|[1-9][0-9]*)` of at most 18 digits, not followed by a fraction or an exponent (as
  /// ``PlainPayload`` reads it): its range.
  private mutating func integer() throws(PlainPayload.Unsure) -> Range<Int> {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    let digits = index - digitsStart
    guard digits > 0, digits <= 18, digits == 1 || bytes[digitsStart] != 0x30 else {
      throw PlainPayload.Unsure()
    }
    guard !(digits == 1 && bytes[digitsStart] == 0x30 && digitsStart > start) else {
      throw PlainPayload.Unsure()
    }
    if index < bytes.count {
      let next = bytes[index]
      guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else {
        throw PlainPayload.Unsure()
      }
    }
    return start..<index
  }

  private mutating func literal(_ word: StaticString) throws(PlainPayload.Unsure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw PlainPayload.Unsure() }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw PlainPayload.Unsure()
    }
    index += count
  }
}
