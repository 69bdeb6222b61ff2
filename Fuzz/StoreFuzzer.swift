// Fuzz target `store`: the bytes become a store file, which is checked, opened read-only as the
// tool opens it, and opened read-write as an app does: restored, read, saved over, rolled back,
// pruned and backed up. Nothing may trap; every failure must be a typed error or a root fallback.
import Foundation

enum StoreFuzzRoute: Codable, Hashable, Sendable {
  case home
  case item(id: Int)
}

/// A folder of this process's own for the store files, in memory where the system has a tmpfs (the
/// store syncs to disk, which would slow fuzzing down a hundredfold); emptied after each input.
let storeFolder: String = {
  let base =
    FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
  let folder = base + "waypoint-fuzz-store-\(ProcessInfo.processInfo.processIdentifier)"
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}()

let storeRestorer: Restorer = {
  var registry = RouteRegistry(schemaVersion: 1)
  registry.register(StoreFuzzRoute.self, tag: "F.Route")
  return Restorer(registry: registry)
}()

/// Opens, reads and writes the bytes as a store file.
func fuzzStore(_ data: Data) {
  let path = storeFolder + "/store.sqlite"
  defer {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: storeFolder)) ?? [] {
      try? FileManager.default.removeItem(atPath: storeFolder + "/" + name)
    }
  }
  guard FileManager.default.createFile(atPath: path, contents: data) else { return }
  let quick = StoreConfiguration(busyTimeout: .zero, recoversCorruptFiles: false)
  _ = try? SnapshotStore.check(path: path, full: true, configuration: quick)
  if let tool = try? SnapshotStore(path: path, configuration: quick, access: .readOnly) {
    readEverything(tool)
  }
  guard
    let app = try? SnapshotStore(path: path, configuration: StoreConfiguration(busyTimeout: .zero))
  else { return }
  readEverything(app)
  for summary in ((try? app.scenes()) ?? []).prefix(3) {
    _ = app.restore(scene: summary.id, with: storeRestorer)
    try? app.confirmRestore(scene: summary.id)
    if let oldest = (try? app.history(scene: summary.id))?.last {
      _ = try? app.rollback(scene: summary.id, to: oldest.id)
    }
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": [RouteRecord(tag: "F.Route", json: "{\"home\":{}}")]
      ])
    _ = try? app.save(snapshot, scene: summary.id)
  }
  _ = try? app.save(
    SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: [:]), scene: "fuzz")
  _ = try? app.prune(keepingLatest: 2)
  _ = try? app.discard(scenes: ["fuzz"])
  try? app.backup(to: storeFolder + "/backup.sqlite")
}

/// Every read a tool makes of a whole store.
private func readEverything(_ store: SnapshotStore) {
  _ = try? store.statistics()
  _ = try? store.quarantined()
  try? store.forEachSnapshot { _ in true }
  try? store.forEachLatestSnapshot { _ in true }
  for summary in ((try? store.scenes()) ?? []).prefix(3) {
    for info in ((try? store.history(scene: summary.id)) ?? []).prefix(3) {
      if let document = try? store.snapshot(id: info.id)?.document.data {
        _ = try? SceneSnapshot(decoding: document, limits: store.configuration.limits)
      }
    }
    _ = store.restore(scene: summary.id, with: storeRestorer)
  }
}
