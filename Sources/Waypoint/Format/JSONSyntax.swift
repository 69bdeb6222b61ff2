import Foundation

/// Finds where JSON text stops being JSON (RFC 8259, and a trailing comma as Foundation's parser
/// allows it), so that an error can name the line, column
/// and byte offset instead of `JSONDecoder`'s "The given data was not valid JSON."
///
/// It only locates: whether text is JSON is always decided by `JSONDecoder`, and this is asked
/// only after it refused. When the two disagree (`JSONDecoder` refuses text this scanner accepts),
/// there is no location and the message says so without one. Tests check it against
/// `JSONSerialization` on generated and mutated texts.
package enum JSONSyntax {
  /// Where and why text stops being JSON.
  package struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The byte offset of the problem, from 0.
    package var offset: Int
    /// The line, from 1.
    package var line: Int
    /// The column in Unicode scalars, from 1.
    package var column: Int
    /// What is wrong there.
    package var message: String

    /// `expected a value, found 'x' at line 1, column 5 (byte 4)`.
    package var description: String {
      "\(message) at line \(line), column \(column) (byte \(offset))"
    }
  }

  /// The first syntax error in `data`, or `nil` when it is one JSON value (with whitespace around
  /// it). Nesting is followed at most `maxDepth` levels (deeper text is reported there).
  package static func firstProblem(in data: Data, maxDepth: Int = 512) -> Problem? {
    let bytes = [UInt8](data)
    var scanner = Scanner(bytes: bytes, maxDepth: maxDepth)
    guard let (offset, message) = scanner.document() else { return nil }
    return locate(offset, message, in: bytes)
  }

  private static func locate(_ offset: Int, _ message: String, in bytes: [UInt8]) -> Problem {
    let end = min(offset, bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<end where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    let column =
      String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count + 1
    return Problem(offset: end, line: line, column: column, message: message)
  }

  private struct Scanner {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
      self.bytes = bytes
      self.maxDepth = maxDepth
    }

    typealias Failure = (Int, String)

    mutating func document() -> Failure? {
      skipSpace()
      if let failure = value(depth: 0) { return failure }
      skipSpace()
      return index < bytes.count ? (index, "extra text after the JSON value, \(found)") : nil
    }

    private var found: String {
      guard index < bytes.count else { return "found the end of the input" }
      let byte = bytes[index]
      if byte >= 0x21 && byte < 0x7F { return "found '\(Character(UnicodeScalar(byte)))'" }
      if byte >= 0x80 {
        let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self)
          .unicodeScalars.first
        if let scalar, scalar != "\u{FFFD}" { return "found '\(scalar)'" }
      }
      return "found byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value(depth: Int) -> Failure? {
      guard index < bytes.count else { return (index, "unexpected end of the input") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return container(depth: depth, close: UInt8(ascii: "}"), keyed: true)
      case UInt8(ascii: "["): return container(depth: depth, close: UInt8(ascii: "]"), keyed: false)
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      default: return (index, "expected a value, \(found)")
      }
    }

    private mutating func container(depth: Int, close: UInt8, keyed: Bool) -> Failure? {
      guard depth < maxDepth else { return (index, "nested deeper than \(maxDepth) levels") }
      index += 1
      skipSpace()
      if index < bytes.count, bytes[index] == close {
        index += 1
        return nil
      }
      while true {
        if keyed {
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            return (index, "expected a member name in quotes, \(found)")
          }
          if let failure = string() { return failure }
          skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            return (index, "expected ':' after a member name, \(found)")
          }
          index += 1
          skipSpace()
        }
        if let failure = value(depth: depth + 1) { return failure }
        skipSpace()
        guard index < bytes.count else { return (index, "unexpected end of the input") }
        if bytes[index] == close {
          index += 1
          return nil
        }
        guard bytes[index] == UInt8(ascii: ",") else {
          return (index, "expected ',' or '\(Character(UnicodeScalar(close)))', \(found)")
        }
        index += 1
        skipSpace()
        // JSONDecoder accepts a comma before the closing bracket; so does this scanner, which
        // only says where JSONDecoder stopped.
        if index < bytes.count, bytes[index] == close {
          index += 1
          return nil
        }
      }
    }

    private mutating func string() -> Failure? {
      index += 1
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          return nil
        case UInt8(ascii: "\\"):
          index += 1
          guard index < bytes.count else { return (index, "unexpected end of the input") }
          let escape = bytes[index]
          if escape == UInt8(ascii: "u") {
            for offset in 1...4 {
              guard index + offset < bytes.count, bytes[index + offset].isHexDigit else {
                return (index - 1, "invalid escape: \\u needs four hexadecimal digits")
              }
            }
            index += 5
          } else if Array("\"\\/bfnrt".utf8).contains(escape) {
            index += 1
          } else {
            return (index - 1, "invalid escape in a string, \(found)")
          }
        case 0x80...0xFF:
          guard let length = utf8Sequence(at: index) else {
            return (index, "invalid UTF-8 in a string, \(found)")
          }
          index += length
        case 0x00..<0x20:
          let hex = String(byte, radix: 16, uppercase: true)
          return (
            index,
            "control character U+\(String(repeating: "0", count: 4 - hex.count) + hex) in a string"
          )
        default:
          index += 1
        }
      }
      return (index, "unexpected end of the input inside a string")
    }

    /// The length of the well-formed UTF-8 sequence at `start`, or `nil`.
    private func utf8Sequence(at start: Int) -> Int? {
      let lead = bytes[start]
      let (length, second): (Int, ClosedRange<UInt8>) =
        switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: (0, 0...0)
        }
      guard length > 0, start + length <= bytes.count, second.contains(bytes[start + 1]) else {
        return nil
      }
      for offset in 2..<length where !(0x80...0xBF).contains(bytes[start + offset]) { return nil }
      return length
    }

    private mutating func number() -> Failure? {
      let start = index
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, bytes[index].isDigit else {
        return (index, "expected a digit, \(found)")
      }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else {
        while index < bytes.count, bytes[index].isDigit { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard index < bytes.count, bytes[index].isDigit else {
          return (index, "expected a digit after '.', \(found)")
        }
        while index < bytes.count, bytes[index].isDigit { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
      {
        index += 1
        if index < bytes.count,
          bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
        {
          index += 1
        }
        guard index < bytes.count, bytes[index].isDigit else {
          return (index, "expected a digit in the exponent, \(found)")
        }
        while index < bytes.count, bytes[index].isDigit { index += 1 }
      }
      // JSONDecoder refuses a number no Double can hold.
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if let value = Double(text), !value.isFinite { return (start, "number out of range") }
      return nil
    }

    private mutating func literal(_ word: String) -> Failure? {
      for byte in word.utf8 {
        guard index < bytes.count, bytes[index] == byte else {
          return (index, "expected '\(word)', \(found)")
        }
        index += 1
      }
      return nil
    }
  }
}

extension UInt8 {
  fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
  fileprivate var isHexDigit: Bool {
    isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
      || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
  }
}
