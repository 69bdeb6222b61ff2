import Foundation
import Testing

@testable import Waypoint

/// The scanner behind offline validation accepts exactly the documents `JSONDecoder` scans, and
/// reads strings exactly as `JSONDecoder` reads them.
@Suite("JSONNode scans and reads as JSONDecoder does")
struct JSONNodeAgreementTests {
  /// Reads nothing: `JSONDecoder` only scans the document.
  struct Nothing: Decodable {}

  /// Pieces of JSON and of almost-JSON.
  static let tokens = [
    "{", "}", "[", "]", ",", ":", " ", "\n", "\t", "\r", "\u{0C}", "\"a\"", "\"\"", "\"k\":", "1",
    "-", "0", "01", "1.5", "e", "E", "+", ".", "1e400", "true", "tru", "false", "null", "nul",
    "\"\\q\"", "\"\\u12G4\"", "\"\\u12\"", "\"\\ud800\"", "\"\\\"", "\"\n\"", "\u{0}", "\u{FEFF}",
    "é", "\"é\"", "/", "\\", "\"\\u00", "\"\\\\\"", "1-2", "--", "[1,]", "{\"a\":1,}",
  ]

  @Test(
    "random texts: the scanner accepts a text exactly when JSONDecoder does",
    arguments: [1, 2, 3] as [UInt64])
  func scanAgreement(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    var accepted = 0
    for iteration in 0..<3000 {
      var text = ""
      for _ in 0..<Int.random(in: 1...12, using: &generator) {
        text += Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &generator)]
      }
      let decodes = (try? JSONDecoder().decode(Nothing.self, from: Data(text.utf8))) != nil
      let scans = (try? JSONNode.scanning(Array(text.utf8), maxDepth: .max)) != nil
      #expect(scans == decodes, "seed \(seed) iteration \(iteration): \(text.debugDescription)")
      if decodes { accepted += 1 }
    }
    #expect(accepted > 100)
  }

  @Test(
    "encodings: byte order marks and the RFC 4627 patterns of zero bytes",
    arguments: [
      [0x00, 0x37], [0x37, 0x00], [0x00, 0x00, 0x00, 0x37], [0x37, 0, 0, 0], [0, 0x37, 0, 0x38],
      [0xFE, 0xFF, 0x00, 0x37], [0xFF, 0xFE, 0x37, 0x00], [0x37, 0x00, 0x38, 0x00],
      [0x37, 0x38, 0x00], [0x5B, 0x00, 0x37, 0x00, 0x5D, 0x00], [0xEF, 0xBB, 0xBF, 0x37],
      [0x20, 0xEF, 0xBB, 0xBF, 0x37], [0xFF, 0xFE], [0xFE, 0xFF, 0xD8, 0x00],
    ] as [[UInt8]])
  func encodings(bytes: [UInt8]) {
    let decodes = (try? JSONDecoder().decode(Nothing.self, from: Data(bytes))) != nil
    let scans = (try? JSONNode.scanning(bytes, maxDepth: .max)) != nil
    #expect(scans == decodes, "\(bytes)")
  }

  @Test(
    "strings read as JSONDecoder reads them, or fail where it fails",
    arguments: PayloadMutator.edgeStrings + [#""plain""#, #""\n\t\"\\""#])
  func strings(raw: String) {
    let inner = String(raw.dropFirst().dropLast())
    let expected = try? JSONDecoder().decode([String].self, from: Data("[\(raw)]".utf8)).first
    #expect(JSONNode.decode(rawString: inner) == expected, "\(raw)")
  }

  @Test("a node writes back what it read, members in order, numbers and strings as written")
  func writesAsRead() throws {
    let text = #"{"b":1e400,"a":[01,"\q",{}],"b":true}"#
    #expect(try JSONNode.scanning(Array(text.utf8), maxDepth: .max).jsonText == text)
  }

  /// Bytes a string's contents are made of: plain text, escapes good and bad, control
  /// characters, UTF-8 whole, cut and invalid.
  static let stringPieces: [[UInt8]] = [
    Array("a".utf8), Array("Z9".utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8),
    Array(#"\n"#.utf8), Array(#"\b\f\r\t"#.utf8), Array(#"\q"#.utf8), Array(#"\u0041"#.utf8),
    Array(#"\u00e9"#.utf8), Array(#"\uD83D"#.utf8), Array(#"\ude00"#.utf8), Array(#"\u12G4"#.utf8),
    Array(#"\u0000"#.utf8), Array("é".utf8), Array("🎈".utf8), [0xC3], [0xA9], [0xFF],
    [0xED, 0xA0, 0x80],
    [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x01], [0x1F], [0x7F], Array("\\u".utf8),
  ]

  @Test(
    "strings of every kind of byte read as JSONDecoder reads them, or fail where it fails",
    arguments: [1, 2, 3] as [UInt64])
  func stringBytes(seed: UInt64) throws {
    var generator = SplitMix64(state: seed)
    var read = 0
    var refused = 0
    for iteration in 0..<4000 {
      var contents: [UInt8] = []
      for _ in 0..<Int.random(in: 0...5, using: &generator) {
        contents += Self.stringPieces.randomElement(using: &generator) ?? []
      }
      let text = Array("[\"".utf8) + contents + Array("\"]".utf8)
      let expected = try? JSONDecoder().decode([String].self, from: Data(text))
      guard let structure = try? JSONStructure(scanning: text, byteLimit: .max, maxDepth: 32)
      else {
        #expect(expected == nil, "seed \(seed) iteration \(iteration): \(contents)")
        continue
      }
      let element = try #require(structure.elements(of: structure.root).first { _ in true })
      let mine = try? structure.string(element)
      #expect(mine == expected?.first, "seed \(seed) iteration \(iteration): \(contents)")
      if mine == nil { refused += 1 } else { read += 1 }
    }
    // Both outcomes must come up, or the comparison proves little.
    #expect(read > 500 && refused > 500, "\(read) read, \(refused) refused")
  }

  @Test("a string that does not read is named with its place and the reason")
  func stringProblems() throws {
    func problem(_ text: String) throws -> String {
      let structure = try JSONStructure(scanning: Array(text.utf8), byteLimit: .max, maxDepth: 8)
      do {
        _ = try structure.string(structure.root)
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(
      try problem(#""ab\qc""#)
        == "invalid escape in a string, found 'q' at line 1, column 4 (byte 3)")
    #expect(
      try problem("\"a\u{1}\"")
        == "control character U+0001 in a string at line 1, column 3 (byte 2)")
    #expect(
      try problem(#""x\ud800y""#)
        == "invalid escape: \\uD800 is half of a surrogate pair at line 1, column 3 (byte 2)")
    #expect(
      try problem(#""\u12G4""#)
        == "invalid escape: \\u needs four hexadecimal digits at line 1, column 2 (byte 1)")
  }

  @Test("plain integers are the integers JSONDecoder reads, and nothing else is plain")
  func plainIntegers() throws {
    for number in PayloadMutator.edgeNumbers + ["0", "-0", "7", "123456789012345678", "-12"] {
      let structure = try JSONStructure(
        scanning: Array("[\(number)]".utf8), byteLimit: .max, maxDepth: 8)
      let element = try #require(structure.elements(of: structure.root).first { _ in true })
      guard let plain = structure.plainInteger(element) else { continue }
      #expect(
        plain == (try? JSONDecoder().decode([Int64].self, from: Data("[\(number)]".utf8)))?.first)
      #expect(plain == Int64(number), "\(number)")
    }
  }

  @Test("nesting: JSONDecoder's own 512 levels, and the caller's limit before anything deeper")
  func nesting() {
    for depth in [511, 512, 513] {
      let text = Array(
        (String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
      let decodes = (try? JSONDecoder().decode(Nothing.self, from: Data(text))) != nil
      #expect(((try? JSONNode.scanning(text, maxDepth: .max)) != nil) == decodes, "\(depth)")
    }
    let deep = Array(("[[[[" + "1" + "]]]] x").utf8)
    #expect(throws: SnapshotFormatError.nestingTooDeep(limit: 3)) {
      _ = try JSONStructure(scanning: deep, byteLimit: .max, maxDepth: 3)
    }
    // Where the text stops being JSON before it nests too deep, that is what is said.
    #expect {
      _ = try JSONStructure(scanning: Array("[1] [[[[[".utf8), byteLimit: .max, maxDepth: 3)
    } throws: { ($0 as? SnapshotFormatError)?.code == .malformedJSON }
    #expect(throws: SnapshotFormatError.tooLarge(byteCount: 9, limit: 8)) {
      _ = try JSONStructure(scanning: Array("[1,2,3,4]".utf8), byteLimit: 8, maxDepth: 3)
    }
  }
}
