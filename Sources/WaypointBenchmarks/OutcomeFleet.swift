import Foundation
import Waypoint

/// A fleet's restore outcome records as JSON Lines, for `waypoint outcomes summarize`: five builds,
/// a third of the restores dropping one to three kinds of routes among twenty tags, drawn from a
/// fixed seed.
enum OutcomeFleet {
  /// The file of `count` records in the cache folder (`$WAYPOINT_BENCH_CACHE`, else
  /// `.build/waypoint-bench-cache`), written on first use under a temporary name and renamed into
  /// place. Its name carries the record format, so that a new format writes it anew.
  static func cached(count: Int, log: (String) -> Void) throws -> String {
    let environment = ProcessInfo.processInfo.environment["WAYPOINT_BENCH_CACHE"]
    let folder = environment.flatMap { $0.isEmpty ? nil : $0 } ?? ".build/waypoint-bench-cache"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/outcomes-\(count)-format\(RestoreOutcome.currentFormat)-fleet1.jsonl"
    if FileManager.default.fileExists(atPath: path) { return path }
    let building = path + ".building"
    log("writing \(count) outcome records to \(path) (once)…")
    let seconds = try timed { try write(count, to: building) } / 1e6
    log(String(format: "  written in %.1f s", seconds))
    guard rename(building, path) == 0 else { throw BenchError("cannot rename \(building)") }
    return path
  }

  /// Writes `count` records to `path`.
  static func write(_ count: Int, to path: String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw BenchError("cannot write \(path)")
    }
    defer { try? handle.close() }
    let builds = ["1.0 (100)", "1.1 (110)", "2.0 (200)", "2.1 (210)", "3.0 (300)"]
    let tags = (0..<20).map { "App.Route\($0)" }
    let reasons = ["removedCase", "unknownTag", "undecodable", "newerRouteVersion"]
    var generator = SeededGenerator(seed: 33)
    var chunk = Data()
    for _ in 0..<count {
      var items: [RestoreOutcome.Item] = []
      if Int.random(in: 0..<3, using: &generator) == 0 {
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          items.append(
            RestoreOutcome.Item(
              kind: .dropped, location: .stack,
              tag: tags[Int.random(in: 0..<tags.count, using: &generator)],
              reason: reasons[Int.random(in: 0..<reasons.count, using: &generator)],
              count: Int.random(in: 1...4, using: &generator)))
        }
      }
      let outcome = RestoreOutcome(
        appBuild: builds[Int.random(in: 0..<builds.count, using: &generator)],
        routeSchemaVersion: 3, storedRouteSchemaVersion: 2,
        outcome: items.isEmpty
          ? .restored : Int.random(in: 0..<5, using: &generator) == 0 ? .root : .partial,
        snapshotAgeHours: Int.random(in: 0..<2000, using: &generator),
        durationMicroseconds: Int.random(in: 50..<5000, using: &generator), crashLoop: .none,
        items: items)
      chunk.append(outcome.jsonLine)
      chunk.append(0x0A)
      if chunk.count > 1 << 20 {
        try handle.write(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: chunk)
  }
}
