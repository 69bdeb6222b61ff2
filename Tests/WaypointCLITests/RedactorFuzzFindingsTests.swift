import Foundation
import Testing
import Waypoint

@testable import WaypointCLI

/// Inputs the `redactor` fuzz target (Scripts/fuzz) stopped on, kept as tests.
@Suite("the redactor on inputs found by fuzzing")
struct RedactorFuzzFindingsTests {
  /// "1" and 117 NUL bytes: the fuzz target stopped on it because Foundation's `String.contains`
  /// on Linux finds `"1\0\0…"` in any text ending with "1". Compared as bytes, nothing leaks.
  static let nulPadded = "1" + String(repeating: "\0", count: 117)

  @Test(
    "a redacted scene id, build or text never holds the original, compared as bytes",
    arguments: [nulPadded, "bob@example.com", "1", String(repeating: "\0", count: 3)])
  func redactedTextHidesTheText(text: String) {
    let redactor = Redactor(limits: .default)
    for redacted in [redactor.scene(text), redactor.build(text), redactor.text(text)] {
      let bytes = Array(redacted.utf8)
      let original = Array(text.utf8)
      let holds = (0...max(0, bytes.count - original.count)).contains {
        bytes.count >= original.count && bytes[$0..<($0 + original.count)].elementsEqual(original)
      }
      #expect(!holds || text.count < 2, "\(redacted) holds the original")
      // Printable and free of NUL bytes, whatever the original held.
      #expect(!bytes.contains(0))
    }
  }

  @Test("a payload of NUL-padded text is redacted into one JSON string")
  func nulPaddedPayload() throws {
    let redacted = Redactor(limits: .default).payload(Self.nulPadded)
    let value = try JSONValue(parsing: redacted)
    guard case .string(let text) = value else {
      Issue.record("expected a string, got \(redacted)")
      return
    }
    #expect(text.hasPrefix("~"))
    #expect(!text.utf8.contains(0))
  }
}
