// Fuzz target `manifest`: a hostile route manifest, as `waypoint validate`, `repair`, `show
// --manifest` and `manifest diff` are given one. When the bytes read as a manifest, it predicts the
// restore of stored routes of every version and tag the `restore` target's registry writes, repairs
// what it predicts, and is compared with that registry's manifest both ways. None of it may trap,
// and none may take longer than the fuzzer's timeout (versions far apart, references that loop).
// Built by Scripts/fuzz with the package's sources; `registry` and `manifest` are the `restore`
// target's.
import Foundation

/// Snapshots of routes at versions 1 and 2, of both tags, an unknown tag and a version below any.
let manifestFuzzSnapshots: [SceneSnapshot] = {
  let records = [
    RouteRecord(tag: "F.Route", json: #"{"old":{}}"#, version: 1),
    RouteRecord(tag: "F.Route", json: #"{"item":{"identifier":3}}"#, version: 1),
    RouteRecord(tag: "F.Route", json: #"{"profile":{"userId":1}}"#, version: 1),
    RouteRecord(tag: "F.Route", json: #"{"item":{"id":3,"tags":["a"]}}"#, version: 2),
    RouteRecord(tag: "F.Article", json: #"{"slug":"a","page":1,"related":[]}"#),
    RouteRecord(tag: "F.Gone", json: "{}", version: 7),
  ]
  return records.map { record in
    SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["main": [record, record]], selectedTab: record)
  }
}()

/// The bytes as a route manifest, used every way the tools use one.
func fuzzManifest(_ data: Data) {
  guard let hostile = try? RouteManifest(decoding: data) else { return }
  for snapshot in manifestFuzzSnapshots {
    for policy in RestorePolicy.allCases {
      let prediction = hostile.predict(snapshot, policy: policy)
      _ = prediction.repaired(snapshot)
    }
  }
  _ = ManifestDiff(committed: hostile, current: manifest, release: "fuzz").findings()
  _ = ManifestDiff(committed: manifest, current: hostile, release: "fuzz").findings()
}
