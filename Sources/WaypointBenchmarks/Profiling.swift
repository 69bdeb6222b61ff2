import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint-bench --profile OPERATION [N]`: one operation alone, `N` times in a loop, in a store of
/// 1,000 snapshots, to be run under `perf record -g` or `valgrind --tool=callgrind`. Nothing is
/// compared and the figures printed are those of a warm loop, not the benchmark's.
enum Profiling {
  static let operations = ["save", "raw-insert", "unchanged", "restore", "encode", "predict"]

  static func run(_ operation: String, iterations: Int, in directory: URL) throws {
    if operation == "predict" { return try predict(iterations: iterations) }
    let path = directory.appendingPathComponent("profile.sqlite").path
    try StoreBuilder.build(at: path, count: 1000)
    let environment = ProcessInfo.processInfo.environment
    // `WAYPOINT_PROFILE_UNTRIMMED`: no trim in the loop (a median save), by a retention no loop
    // reaches.
    var configuration = StoreConfiguration()
    if environment["WAYPOINT_PROFILE_UNTRIMMED"] != nil { configuration.retention = 1_000_000 }
    let store = try SnapshotStore(path: path, configuration: configuration)
    let snapshots = (0..<min(iterations, 4096)).map { Fixtures.snapshot(2_000_000 + $0) }
    let base = Fixtures.snapshot(1_999_998)
    _ = try store.save(base, scene: "profile")
    let raw = try RawStore(path: directory.appendingPathComponent("raw.sqlite").path)
    let documents = snapshots.map { $0.encoded() }
    let start = DispatchTime.now().uptimeNanoseconds
    var wrote = 0
    // WAL frames each save added, for `save` and `raw-insert`: printed as a histogram.
    var frames: [UInt32: Int] = [:]
    let wal = WALFrames(database: operation == "raw-insert" ? raw.path : path)
    // `WAYPOINT_PROFILE_EVICT`: 64 MiB written before each operation, so that it starts with cold
    // caches (under `valgrind --tool=callgrind --cache-sim=yes`, its misses are those of a cold
    // call: the code and data it touches).
    let evictor = environment["WAYPOINT_PROFILE_EVICT"].map { _ in
      UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 20, alignment: 64)
    }
    defer { evictor?.deallocate() }
    for round in 0..<iterations {
      evictor?.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: round))
      switch operation {
      case "save":
        var snapshot = snapshots[round % snapshots.count]
        snapshot.metadata.savedAt = base.metadata.savedAt.addingTimeInterval(Double(round + 1))
        let before = wal.current()
        if try store.save(snapshot, scene: "profile").wrote { wrote += 1 }
        frames[WALFrames.added(from: before, to: wal.current()), default: 0] += 1
      case "raw-insert":
        let before = wal.current()
        try raw.insert(
          scene: "profile", savedAt: Int64(round), document: documents[round % documents.count])
        frames[WALFrames.added(from: before, to: wal.current()), default: 0] += 1
      case "unchanged":
        var same = base
        same.metadata.savedAt = base.metadata.savedAt.addingTimeInterval(Double(round + 1))
        if try store.save(same, scene: "profile").wrote { wrote += 1 }
      case "restore":
        guard store.restore(scene: "profile", with: restorer).report.outcome == .restored else {
          throw BenchError("a restore was not whole")
        }
        try store.confirmRestore(scene: "profile")
      default:
        wrote += snapshots[round % snapshots.count].encoded().count
      }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    print(
      String(
        format: "%@ ×%d: %.2f µs each (warm loop; %d)", operation, iterations,
        elapsed / Double(max(1, iterations)), wrote))
    if !frames.isEmpty {
      let total = frames.reduce(0) { $0 + Int($1.key) * $1.value }
      print(
        String(format: "WAL frames per write: %.2f; ", Double(total) / Double(iterations))
          + frames.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
            separator: ", "))
    }
  }

  /// `predict`: `waypoint validate`'s prediction of a restore of each document
  /// (``RouteManifest/predict(encoded:policy:limits:)``), over the benchmark's documents,
  /// `iterations` of them in all; no store, only the CPU work of the prediction.
  private static func predict(iterations: Int) throws {
    let documents = (0..<1000).map { Fixtures.snapshot($0).encoded() }
    let manifest = RouteManifest(registry: registry)
    for document in documents
    where manifest.predict(encoded: document).report.outcome != .restored {
      throw BenchError("a benchmark document is not predicted to restore whole")
    }
    let bytes = documents.reduce(0) { $0 + $1.count }
    // CPU time, which other processes on the machine disturb less than the wall clock.
    let start = clock()
    var kept = 0
    for round in 0..<iterations {
      kept += manifest.predict(encoded: documents[round % documents.count]).entries.count
    }
    let elapsed = Double(clock() - start) * 1_000_000 / Double(CLOCKS_PER_SEC)
    print(
      String(
        format: "predict ×%d: %.3f µs of CPU each (warm loop; %d routes; %d bytes a document)",
        iterations, elapsed / Double(max(1, iterations)), kept, bytes / documents.count))
  }
}
