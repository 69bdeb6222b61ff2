// Speed of Waypoint's save and restore, as ratios against baselines measured in the same run:
// raw sqlite3 C calls doing the same insert and select, and plain JSONDecoder decoding the same
// routes. Run with `swift run -c release WaypointBenchmarks [iterations]` (BENCH_RETENTION=N sets
// the store's retention, to measure long histories); `--navigator` measures a SceneNavigator's
// navigation changes instead. Absolute times drift
// between runs and machines; compare the ratios.
import Foundation
import Waypoint
import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

enum Route: Codable, Hashable, Sendable {
  case category(name: String)
  case product(id: Int, variant: String)
  case review(productId: Int, page: Int)
  case settings
}

let iterations = CommandLine.arguments.dropFirst().lazy.compactMap { Int($0) }.first ?? 2000
let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// The median of `count` timings of `body`, in microseconds.
func median(_ count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
  var samples: [Double] = []
  samples.reserveCapacity(count)
  let clock = ContinuousClock()
  for index in 0..<count {
    let start = clock.now
    try body(index)
    let elapsed = clock.now - start
    samples.append(
      Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
  }
  samples.sort()
  return samples[samples.count / 2]
}

func report(_ name: String, _ waypoint: Double, _ baseline: Double, _ baselineName: String) {
  let line =
    name.padding(toLength: 34, withPad: " ", startingAt: 0)
    + String(
      format: "%8.1f µs   %-30@ %8.1f µs   ratio %.2f", waypoint, baselineName as NSString,
      baseline, waypoint / baseline)
  print(line)
}

let registry = RouteRegistry().registering(Route.self, tag: "Bench.Route")
let restorer = Restorer(registry: registry)
func routes(_ index: Int) -> [Route] {
  [.category(name: "Shoes and boots"), .product(id: index, variant: "blue-42")]
    + (0..<8).map { .review(productId: index, page: $0) } + [.settings]
}
func snapshot(_ index: Int) throws -> SceneSnapshot {
  SceneSnapshot(
    metadata: SnapshotMetadata(registry: registry, appBuild: "3.1 (512)"),
    stacks: [
      "shop": registry.records(for: routes(index)),
      "account": registry.records(for: [Route.settings]),
    ],
    selectedTab: registry.record(for: "shop"))
}
let sampleDocument = try snapshot(0).encoded()

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "waypoint-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

if CommandLine.arguments.contains("--navigator") {
  try await NavigatorBenchmark.run(iterations: iterations, in: directory)
  exit(0)
}

print(
  "Waypoint benchmarks: \(iterations) iterations, snapshot document \(sampleDocument.count) bytes")
print("SQLite \(SQLiteLibrary.version), WAL, synchronous=NORMAL, one transaction per save\n")

// Baseline: raw C API, same table shape, same bytes, prepared once, BEGIN IMMEDIATE per insert.
var raw: OpaquePointer?
sqlite3_open_v2(
  directory.appendingPathComponent("raw.sqlite").path, &raw,
  SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
sqlite3_exec(raw, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", nil, nil, nil)
sqlite3_exec(
  raw,
  """
  CREATE TABLE snapshot (id INTEGER PRIMARY KEY AUTOINCREMENT, scene_id TEXT NOT NULL, saved_at INTEGER NOT NULL,
    format INTEGER NOT NULL, route_schema_version INTEGER NOT NULL, app_build TEXT, document BLOB NOT NULL) STRICT;
  CREATE INDEX snapshot_by_scene ON snapshot (scene_id, id);
  """, nil, nil, nil)
var insert: OpaquePointer?
sqlite3_prepare_v2(
  raw,
  "INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, app_build, document) VALUES (?,?,?,?,?,?)",
  -1, &insert, nil)
let documents = try (0..<iterations).map { try snapshot($0).encoded() }
let rawSave = median(iterations) { index in
  sqlite3_exec(raw, "BEGIN IMMEDIATE", nil, nil, nil)
  sqlite3_bind_text(insert, 1, "scene", -1, transient)
  sqlite3_bind_int64(insert, 2, 1_800_000_000)
  sqlite3_bind_int64(insert, 3, 1)
  sqlite3_bind_int64(insert, 4, 1)
  sqlite3_bind_text(insert, 5, "3.1 (512)", -1, transient)
  documents[index].withUnsafeBytes { bytes in
    _ = sqlite3_bind_blob(insert, 6, bytes.baseAddress, Int32(bytes.count), transient)
  }
  sqlite3_step(insert)
  sqlite3_reset(insert)
  sqlite3_exec(raw, "COMMIT", nil, nil, nil)
}

let store = try SnapshotStore(
  path: directory.appendingPathComponent("store.sqlite").path,
  configuration: StoreConfiguration(
    retention: ProcessInfo.processInfo.environment["BENCH_RETENTION"].flatMap { Int($0) } ?? 5))
let snapshots = try (0..<iterations).map(snapshot)
let save = try median(iterations) { index in try store.save(snapshots[index], scene: "scene") }
let unchanged = try median(iterations) { _ in
  try store.save(snapshots[iterations - 1], scene: "scene")
}
report("save (new snapshot)", save, rawSave, "raw C insert + commit")
report("save (unchanged, writes nothing)", unchanged, rawSave, "raw C insert + commit")

// Restore: the store reads the latest document, decodes, restores and counts the restore.
// Baseline: raw C select of the same document, then plain JSONDecoder of the routes it holds.
struct PlainDocument: Decodable {
  struct Route: Decodable { var tag: String, json: String }
  var stacks: [String: [Route]]
}
var select: OpaquePointer?
sqlite3_prepare_v2(
  raw, "SELECT document FROM snapshot WHERE scene_id = ? ORDER BY id DESC LIMIT 1", -1, &select, nil
)
let rawRestore = median(iterations) { _ in
  sqlite3_bind_text(select, 1, "scene", -1, transient)
  sqlite3_step(select)
  let data = Data(
    bytes: sqlite3_column_blob(select, 0), count: Int(sqlite3_column_bytes(select, 0)))
  sqlite3_reset(select)
  let decoder = JSONDecoder()
  let document = try? decoder.decode(PlainDocument.self, from: data)
  for route in document?.stacks["shop"] ?? [] {
    _ = try? decoder.decode(Route.self, from: Data(route.json.utf8))
  }
}
// A threshold no run reaches, so that the crash-loop guard does not fire between restores.
let reader = try SnapshotStore(
  path: store.path, configuration: StoreConfiguration(crashLoopThreshold: .max))
let storeRestore = median(iterations) { _ in _ = reader.restore(scene: "scene", with: restorer) }
let confirm = try median(iterations) { _ in try reader.confirmRestore(scene: "scene") }
let coreRestore = median(iterations) { _ in _ = restorer.restore(encoded: sampleDocument) }
let plainDecode = median(iterations) { _ in
  let decoder = JSONDecoder()
  let document = try? decoder.decode(PlainDocument.self, from: sampleDocument)
  for route in document?.stacks["shop"] ?? [] {
    _ = try? decoder.decode(Route.self, from: Data(route.json.utf8))
  }
}
report("restore from the store", storeRestore, rawRestore, "raw C select + JSONDecoder")
report("confirm restore", confirm, rawSave, "raw C insert + commit")
report("restore of a document (core)", coreRestore, plainDecode, "plain JSONDecoder")
sqlite3_finalize(insert)
sqlite3_finalize(select)
sqlite3_close_v2(raw)
