import Foundation
import Waypoint

extension RestorePrediction {
  /// The snapshot as the predicted restore would leave it, to be saved in its place: migrated
  /// routes replace the stored ones, dropped routes leave their stacks and slots, and split-view
  /// values this build does not know go back to their defaults. Routes whose fate is undetermined
  /// (only the app can tell) stay exactly as stored, and so does everything else.
  ///
  /// `nil` when there is nothing to repair: nothing would change, or the prediction is the root
  /// (an unreadable snapshot, one written by a newer version of the app, or one with nothing to
  /// keep). Repairing such a snapshot would leave nothing of it, and the stored data is left for a
  /// later build or manifest.
  ///
  /// `snapshot` is the one the prediction was made for. What does not match it changes nothing: an
  /// entry at a location the snapshot does not have, a route entry whose tag is not the tag stored
  /// at its location, or a dropped split-view value that this build knows.
  public func repaired(_ snapshot: SceneSnapshot) -> SceneSnapshot? {
    guard report.outcome != .root else { return nil }
    var fates: [RouteLocation: Entry] = [:]
    for entry in entries { fates[entry.location] = entry }
    var changed = false
    let repaired = snapshot.mapSlots { location, slot in
      guard let entry = fates[location] else { return .keep }
      let change: SceneSnapshot.SlotChange
      switch (slot, entry.fate) {
      case (.route(let record), .migrated(let current)) where entry.tag == record.tag:
        change = .replace(current)
      case (.route(let record), .dropped) where entry.tag == record.tag:
        change = .remove
      case (.columnVisibility(let visibility), .dropped) where !visibility.isKnown:
        change = .remove
      case (.preferredCompactColumn(let column), .dropped) where !column.isKnown:
        change = .remove
      default:
        change = .keep
      }
      if change != .keep { changed = true }
      return change
    }
    return changed ? repaired : nil
  }
}
