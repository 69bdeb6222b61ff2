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
      let scans = (try? JSONNode.scanning(Array(text.utf8))) != nil
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
    let scans = (try? JSONNode.scanning(bytes)) != nil
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
    #expect(try JSONNode.scanning(Array(text.utf8)).jsonText == text)
  }
}
