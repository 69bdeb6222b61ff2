import Foundation
import Testing
import Waypoint

@testable import WaypointCLI

/// `export` and `import` write and read the usual lines without Foundation's date formatting or a
/// second parse; these tests hold the fast paths to the general ones.
@Suite("export and import: the fast paths against the general ones")
struct TransferFastPathTests {
  @Test("a line's save time is written as Foundation's ISO 8601 style writes it")
  func lineDates() {
    var generator = SplitMix64(state: 0xDA7E)
    var seconds: [Double] = [0, 1, 59, 86_399, 86_400, 951_782_400, 4_107_542_399, 253_402_300_799]
    for _ in 0..<3000 {
      seconds.append(Double(Int64.random(in: 0...253_402_300_799, using: &generator)))
    }
    // Outside the fast path's range, and fractions: written by Foundation as before.
    seconds += [-1, -62_167_219_200, 253_402_300_800, 1e15, 0.5, 1_800_000_000.25, -0.5]
    for value in seconds {
      let date = Date(timeIntervalSince1970: value)
      #expect(SnapshotLine.date(date) == Formatting.date(date), "\(value)")
    }
  }
}
