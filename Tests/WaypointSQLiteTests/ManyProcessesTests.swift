import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

/// Several writer processes, reader processes (the store read-only, and the built `waypoint` tool)
/// and a pruning process on one file at once. The short form runs in CI; the long form is
/// `WAYPOINT_MANY_SAVES=2500 swift test --filter ManyProcessesTests` (see Docs/StoreReference.md,
/// "Reliability").
@Suite("Snapshot store: many processes at once", .serialized)
struct ManyProcessesTests {
  let directory = TemporaryDirectory()

  /// Saves per writer.
  static let saves = environmentCount("WAYPOINT_MANY_SAVES", default: 250)

  @Test("4 writers, readers and a prune at once: every save present, no busy error surfaced")
  func writersReadersAndPrune() throws {
    let path = directory.path()
    // Old snapshots for the prune to delete while the writers save.
    do {
      let store = try SnapshotStore(path: path)
      for index in 0..<20 {
        try store.save(
          try snapshot([.item(id: index)], savedAt: Date(timeIntervalSince1970: 900_000_000)),
          scene: "old-\(index)")
      }
    }
    let rounds = max(5, Self.saves / 25)
    let writers = try (0..<4).map {
      try HelperRun(["save", path, "writer-\($0)", String(Self.saves)])
    }
    let readers = try (0..<2).map { _ in try HelperRun(["read", path, String(rounds)]) }
    let pruner = try HelperRun(["prune", path, "1000000", String(rounds)])
    // The built tool reads the same file meanwhile, as a support engineer would.
    var toolRuns = 0
    var toolFailures: [String] = []
    if let tool = builtExecutable("waypoint") {
      while writers.contains(where: { $0.process.isRunning }) && toolRuns < rounds {
        let process = Process()
        process.executableURL = tool
        process.arguments = ["--db", path, "scenes", "--json"]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        toolRuns += 1
        if process.terminationStatus != 0 {
          toolFailures.append(
            "exit \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
      }
    } else {
      Issue.record("the waypoint tool is not built next to the tests")
    }
    for run in writers + readers + [pruner] { run.finish() }

    for run in writers + readers + [pruner] {
      #expect(run.process.terminationStatus == 0, "a helper failed: \(run.lines.suffix(1))")
    }
    #expect(toolFailures.isEmpty, "the tool failed: \(toolFailures.prefix(3))")
    let store = try SnapshotStore(path: path)
    #expect(try integrityCheck(store) == "ok")
    var saved = 0
    for (index, writer) in writers.enumerated() {
      let ids = writer.lines.compactMap { $0.split(separator: " ").last.flatMap { Int64($0) } }
      #expect(ids.count == Self.saves)
      let stored = Set(try store.history(scene: "writer-\(index)").map(\.id))
      #expect(
        Set(ids) == stored, "writer \(index): \(Set(ids).subtracting(stored).count) saves missing")
      saved += stored.count
    }
    #expect(try store.scenes().filter { $0.id.hasPrefix("old-") }.isEmpty)
    #expect(pruner.lines.count == rounds)
    print(
      "many processes: 4 writers saved \(saved) of \(4 * Self.saves), \(2 * rounds) reader rounds, \(toolRuns) tool runs, \(rounds) prunes; busy errors surfaced: \(toolFailures.count)"
    )
  }
}
