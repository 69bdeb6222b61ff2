import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

/// What a restore would do with one scene's latest snapshot, predicted from a route manifest,
/// together with what the store itself says of the snapshot (a crash loop, a document over the size
/// limit): the one judgement of a scene, which `validate` prints and `repair` acts on.
///
/// Encoded as `validate --json` writes a scene.
struct ScenePrediction {
  /// A dropped or undetermined route or value: where, its tag, and why.
  struct Item {
    var location: String
    var tag: String?
    var reason: String
  }

  var scene: String
  var snapshot: Int64
  /// The outcome of the predicted restore; `root` for a document that was not read.
  var outcome: String
  var kept = 0
  var migrated = 0
  /// The dropped routes and replaced values; none when the document cannot be read.
  var dropped: [Item] = []
  /// The routes only the app can judge.
  var undetermined: [Item] = []
  /// Why the document cannot be read, when it cannot: over the limit, damaged, or of a newer
  /// format than this build reads (the words `show` and `repair` use for it too).
  var unreadable: String?
  /// The store's own mark: a crash loop, which the app restores as the root whatever the routes.
  var crashLoop: String?
  /// The snapshot as read; `nil` when it cannot be read (a newer format included).
  var decoded: SceneSnapshot?
  /// The manifest's prediction; `nil` for a document over the limit, which the store did not read.
  var prediction: RestorePrediction?

  /// The store's crash-loop mark of the snapshot, if any.
  private static func crashLoop(_ info: SnapshotInfo) -> String? {
    if info.quarantine?.kind == .crashLoop { return info.quarantine?.detail }
    guard info.isCrashLoop else { return nil }
    return
      "restored \(Formatting.count(info.unconfirmedRestores, "time")) without the app confirming: "
      + "the next restore "
      + "is a crash loop"
  }

  init(
    _ stored: StoredSnapshot, manifest: RouteManifest, policy: RestorePolicy,
    limits: InputLimits
  ) {
    scene = stored.info.scene
    snapshot = stored.info.id
    crashLoop = Self.crashLoop(stored.info)
    let document: Data
    switch stored.document {
    case .read(let data): document = data
    case .tooLarge(let byteCount, let limit):
      // The store did not read a document over the limit: nothing to predict.
      unreadable = SnapshotFormatError.tooLarge(byteCount: byteCount, limit: limit).description
      outcome = RestoreReport.Outcome.root.rawValue
      return
    }
    let prediction: RestorePrediction
    do {
      let decoded = try SceneSnapshot(decoding: document, limits: limits)
      self.decoded = decoded
      prediction = manifest.predict(decoded, policy: policy, limits: limits)
    } catch {
      // As a restore reads it: the root, with the cause.
      prediction = manifest.predict(encoded: document, policy: policy, limits: limits)
    }
    self.prediction = prediction
    outcome = prediction.report.outcome.rawValue
    for entry in prediction.entries {
      switch entry.fate {
      case .kept: kept += 1
      case .migrated: migrated += 1
      case .dropped(let reason):
        if unreadable == nil {
          if reason.code == .unreadableSnapshot, let error = reason.formatError {
            unreadable = error.description
          } else if reason.code == .newerFormat {
            unreadable = reason.message
          }
        }
        if unreadable == nil {
          dropped.append(
            Item(
              location: entry.location.description, tag: entry.tag, reason: reason.description))
        }
      case .undetermined(let why):
        undetermined.append(
          Item(location: entry.location.description, tag: entry.tag, reason: why))
      }
    }
  }
}
