import Foundation

/// Reads the structure of a JSON document exactly as the scanner of swift-foundation's
/// `JSONDecoder` does, before any type reads it:
/// - the encoding is UTF-8 unless the first four bytes say otherwise (a UTF-16 or UTF-32 byte order
///   mark, or the RFC 4627 pattern of zero bytes), as in ``utf8Representation(of:)``;
/// - whitespace is space, tab, CR and LF; a UTF-8 byte order mark may open the document;
/// - arrays and objects may end with a trailing comma (`[1,]`, `{"a":1,}`), and nest at most 512
///   deep;
/// - `true`, `false` and `null` are spelled exactly;
/// - a number is a `-` or a digit followed by any run of digits, `.`, `+`, `-`, `e` and `E`
///   (`01`, `1.`, `--1` scan; they fail only when read);
/// - a string runs to the next quote that no backslash escapes; a `\u` needs four more bytes, none
///   of them a quote; anything else (invalid escapes, lone surrogates, raw control characters) is
///   judged only when the string is read.
struct JSONNodeScanner {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static let maxDepth = 512

  let bytes: [UInt8]
  private var index = 0
  private var depth = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The bytes as UTF-8 without a byte order mark, after `JSONDecoder`'s encoding detection;
  /// `nil` when they do not convert.
  static func utf8Representation(of bytes: [UInt8]) -> [UInt8]? {
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
    let body = bytes.dropFirst(bom)
    if encoding == .utf8 { return Array(body) }
    return String(bytes: body, encoding: encoding).map { Array($0.utf8) }
  }

  mutating func document() throws(Failure) -> JSONNode {
    let node = try value()
    skipWhitespace()
    guard index == bytes.count else { throw fail("unexpected character after the top-level value") }
    return node
  }

  private func fail(_ what: String) -> Failure {
    Failure(description: "\(what) at byte \(index)")
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D, 0x0A: index += 1
      default: return
      }
    }
  }

  /// The next byte after whitespace, not consumed.
  private mutating func peekAfterWhitespace() throws(Failure) -> UInt8 {
    skipWhitespace()
    guard index < bytes.count else { throw fail("unexpected end of data") }
    return bytes[index]
  }

  private mutating func value() throws(Failure) -> JSONNode {
    switch try peekAfterWhitespace() {
    case UInt8(ascii: "\""): return .string(raw: try string())
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
    default: throw fail("unexpected character")
    }
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let expected = word.withUTF8Buffer { Array($0) }
    guard bytes.count - index >= expected.count else { throw fail("unexpected end of data") }
    guard bytes[index..<index + expected.count].elementsEqual(expected) else {
      throw fail("expected \(word)")
    }
    index += expected.count
  }

  private mutating func number() -> JSONNode {
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
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  /// The raw text of a string; the reader stands on its opening quote.
  private mutating func string() throws(Failure) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw fail("expected a string")
    }
    index += 1
    let start = index
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        let raw = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return raw
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw fail("unexpected end of data") }
        let escaped = bytes[index]
        index += 1
        if escaped == UInt8(ascii: "u") {
          guard bytes.count - index >= 4 else { throw fail("unexpected end of data") }
          guard !bytes[index..<index + 4].contains(UInt8(ascii: "\"")) else {
            throw fail("invalid \\u escape")
          }
          index += 4
        }
      default:
        index += 1
      }
    }
    throw fail("unexpected end of data")
  }

  private mutating func enter() throws(Failure) {
    guard depth < Self.maxDepth else { throw fail("nested too deep") }
    depth += 1
  }

  private mutating func array() throws(Failure) -> JSONNode {
    try enter()
    defer { depth -= 1 }
    index += 1
    var items: [JSONNode] = []
    if try peekAfterWhitespace() == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      items.append(try value())
      switch try peekAfterWhitespace() {
      case UInt8(ascii: "]"):
        index += 1
        return .array(items)
      case UInt8(ascii: ","):
        index += 1
        if try peekAfterWhitespace() == UInt8(ascii: "]") {
          index += 1
          return .array(items)
        }
      default: throw fail("unexpected character in array")
      }
    }
  }

  private mutating func object() throws(Failure) -> JSONNode {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [JSONNode.Member] = []
    if try peekAfterWhitespace() == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      _ = try peekAfterWhitespace()
      let key = try string()
      guard try peekAfterWhitespace() == UInt8(ascii: ":") else {
        throw fail("unexpected character in object")
      }
      index += 1
      members.append(JSONNode.Member(rawKey: key, value: try value()))
      switch try peekAfterWhitespace() {
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      case UInt8(ascii: ","):
        index += 1
        if try peekAfterWhitespace() == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        }
      default: throw fail("unexpected character in object")
      }
    }
  }
}
