import Foundation

/// Reads the structure of a JSON text exactly as the scanner of swift-foundation's `JSONDecoder`
/// does, before any type reads it, and records it in a ``JSONStructure``:
/// - the encoding is UTF-8 unless the first four bytes say otherwise (a UTF-16 or UTF-32 byte order
///   mark, or the RFC 4627 pattern of zero bytes), as in ``utf8Representation(of:)``;
/// - whitespace is space, tab, CR and LF; a UTF-8 byte order mark may open the text;
/// - arrays and objects may end with a trailing comma (`[1,]`, `{"a":1,}`), and nest at most 512
///   deep;
/// - `true`, `false` and `null` are spelled exactly;
/// - a number is a `-` or a digit followed by any run of digits, `.`, `+`, `-`, `e` and `E`
///   (`01`, `1.`, `--1` scan; they fail only when read);
/// - a string runs to the next quote that no backslash escapes; a `\u` needs four more bytes, none
///   of them a quote; anything else (invalid escapes, lone surrogates, raw control characters,
///   invalid UTF-8) is judged only when the string is read (``JSONStructure/string(_:)``).
///
/// It is the one scanner of JSON text in Waypoint: snapshot documents, route payloads, the lines
/// of `waypoint export`. It also applies the nesting limit of ``InputLimits``, which it reaches
/// before anything deeper is read, and names where a text stops being JSON in the words of
/// ``JSONProblem``. `JSONNodeAgreementTests` checks it against `JSONDecoder` itself.
package struct JSONNodeScanner {
  /// Why a scan stopped.
  package enum Stop: Error {
    /// The text is not JSON as `JSONDecoder` scans it.
    case malformed(offset: Int, message: String)
    /// Arrays and objects nest deeper than the caller's limit.
    case tooDeep
  }

  /// `JSONDecoder`'s own limit on nesting.
  package static let maxDepth = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  /// The caller's limit on nesting (``InputLimits/maxNestingDepth``).
  private let depthLimit: Int
  /// Whether the values are recorded (``JSONStructure``) or only checked.
  private let recording: Bool
  private(set) var entries: [JSONStructure.Entry] = []
  private var index = 0
  private var depth = 0

  /// A scanner of `bytes` (UTF-8, without a byte order mark) that stops deeper than `depthLimit`.
  package init(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int, recording: Bool) {
    self.bytes = bytes
    self.depthLimit = depthLimit
    self.recording = recording
    if recording { entries.reserveCapacity(max(4, bytes.count / 12)) }
  }

  /// The bytes as UTF-8 after `JSONDecoder`'s encoding detection, and the length of the byte order
  /// mark it dropped; `nil` when they do not convert. UTF-8 input is returned as it is, without
  /// its byte order mark.
  package static func utf8Representation(of bytes: UnsafeBufferPointer<UInt8>) -> (
    utf8: [UInt8]?, bom: Int
  )? {
    func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
    let encoding: String.Encoding
    let bom: Int
    switch (at(0), at(1), at(2), at(3)) {
    case (0, 0, 0xFE, 0xFF): (encoding, bom) = (.utf32BigEndian, 4)
    case (0xFE, 0xFF, 0, 0): (encoding, bom) = (.utf32LittleEndian, 4)
    case (0xFE, 0xFF, _, _): (encoding, bom) = (.utf16BigEndian, 2)
    case (0xFF, 0xFE, _, _): (encoding, bom) = (.utf16LittleEndian, 2)
    case (0xEF, 0xBB, 0xBF, _): (encoding, bom) = (.utf8, 3)
    case (0, 0, 0, .some(let last)) where last != 0: (encoding, bom) = (.utf32BigEndian, 0)
    case (0, .some(let one), 0, .some(let three)) where one != 0 && three != 0:
      (encoding, bom) = (.utf16BigEndian, 0)
    case (.some(let first), 0, 0, 0) where first != 0: (encoding, bom) = (.utf32LittleEndian, 0)
    case (.some(let first), 0, .some(let two), 0) where first != 0 && two != 0:
      (encoding, bom) = (.utf16LittleEndian, 0)
    case (0, .some(let one), nil, nil) where one != 0: (encoding, bom) = (.utf16BigEndian, 0)
    case (.some(let first), 0, nil, nil) where first != 0: (encoding, bom) = (.utf16LittleEndian, 0)
    default: (encoding, bom) = (.utf8, 0)
    }
    // UTF-8: the caller reads the bytes after the mark where they are.
    if encoding == .utf8 { return (nil, bom) }
    let body = UnsafeBufferPointer(rebasing: bytes[bom...])
    guard let text = String(bytes: body, encoding: encoding) else { return nil }
    return (Array(text.utf8), bom)
  }

  /// Scans one JSON value with whitespace around it, the whole of the bytes.
  package mutating func document() throws(Stop) {
    skipWhitespace()
    try value()
    skipWhitespace()
    guard index == bytes.count else {
      throw fail("extra text after the JSON value, \(found)")
    }
  }

  // MARK: Problems

  private func fail(_ message: String, at offset: Int? = nil) -> Stop {
    .malformed(offset: offset ?? index, message: message)
  }

  /// What stands at the reader's place, for messages: `found 'x'`, `found the end of the input`.
  private var found: String { JSONProblem.found(at: index, in: bytes) }

  // MARK: Values

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D, 0x0A: index += 1
      default: return
      }
    }
  }

  /// Appends an entry for a value that holds no other (its `next` is the entry after it).
  private mutating func record(
    _ kind: JSONStructure.Kind, flags: UInt8 = 0, start: Int, end: Int
  ) {
    guard recording else { return }
    entries.append(
      JSONStructure.Entry(
        kind: kind, flags: flags, start: start, end: end, next: entries.count + 1, count: 0))
  }

  /// The value at the reader's place (whitespace skipped).
  private mutating func value() throws(Stop) {
    guard index < bytes.count else { throw fail("unexpected end of the input") }
    switch bytes[index] {
    case UInt8(ascii: "\""): try string()
    case UInt8(ascii: "{"): try container(object: true)
    case UInt8(ascii: "["): try container(object: false)
    case UInt8(ascii: "t"):
      let start = index
      try literal("true")
      record(.bool, flags: 1, start: start, end: index)
    case UInt8(ascii: "f"):
      let start = index
      try literal("false")
      record(.bool, start: start, end: index)
    case UInt8(ascii: "n"):
      let start = index
      try literal("null")
      record(.null, start: start, end: index)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): number()
    default: throw fail("expected a value, \(found)")
    }
  }

  private mutating func literal(_ word: StaticString) throws(Stop) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for byte in expected {
      guard index < bytes.count, bytes[index] == byte else {
        throw fail("expected '\(word)', \(found)")
      }
      index += 1
    }
  }

  private mutating func number() {
    let start = index
    index += 1
    scan: while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"),
        UInt8(ascii: "-"), UInt8(ascii: "e"), UInt8(ascii: "E"):
        index += 1
      default: break scan
      }
    }
    record(.number, start: start, end: index)
  }

  /// A string; the reader stands on its opening quote. Recorded with the flags
  /// ``JSONStructure/Entry/escaped`` (a backslash or a control character in it) and
  /// ``JSONStructure/Entry/nonASCII``.
  private mutating func string() throws(Stop) {
    index += 1
    let start = index
    var flags: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        record(.string, flags: flags, start: start, end: index)
        index += 1
        return
      }
      if byte >= 0x80 {
        flags |= JSONStructure.Entry.nonASCII
      } else if byte < 0x20 {
        flags |= JSONStructure.Entry.escaped
      } else if byte == UInt8(ascii: "\\") {
        flags |= JSONStructure.Entry.escaped
        let backslash = index
        index += 1
        guard index < bytes.count else { break }
        if bytes[index] == UInt8(ascii: "u") {
          guard bytes.count - index > 4 else { break }
          for offset in 1...4 where bytes[index + offset] == UInt8(ascii: "\"") {
            throw fail("invalid escape: \\u needs four hexadecimal digits", at: backslash)
          }
          index += 4
        }
      }
      index += 1
    }
    throw fail("unexpected end of the input inside a string", at: bytes.count)
  }

  /// An array or an object; the reader stands on its opening bracket.
  private mutating func container(object: Bool) throws(Stop) {
    guard depth < depthLimit else { throw .tooDeep }
    guard depth < Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
    depth += 1
    defer { depth -= 1 }
    let start = index
    let entry = entries.count
    if recording {
      entries.append(
        JSONStructure.Entry(
          kind: object ? .object : .array, flags: 0, start: start, end: start, next: 0, count: 0))
    }
    let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
    var count = 0
    index += 1
    skipWhitespace()
    if index < bytes.count, bytes[index] == close {
      index += 1
    } else {
      members: while true {
        if object {
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw fail("expected a member name in quotes, \(found)")
          }
          try string()
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw fail("expected ':' after a member name, \(found)")
          }
          index += 1
          skipWhitespace()
        }
        try value()
        count += 1
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of the input") }
        if bytes[index] == close {
          index += 1
          break members
        }
        guard bytes[index] == UInt8(ascii: ",") else {
          throw fail("expected ',' or '\(Character(UnicodeScalar(close)))', \(found)")
        }
        index += 1
        skipWhitespace()
        // JSONDecoder takes a comma before the closing bracket.
        if index < bytes.count, bytes[index] == close {
          index += 1
          break members
        }
      }
    }
    if recording {
      entries[entry].end = index
      entries[entry].next = entries.count
      entries[entry].count = count
    }
  }
}
