import Foundation
import Waypoint
import WaypointSQLite

/// Something a ``SceneNavigator`` did with its store, for the app's log
/// (``SceneNavigator/onEvent``). Failures are reported here and never thrown into view code.
public enum NavigatorEvent: Sendable, CustomStringConvertible {
  /// The scene was restored (or started at the root); the report says what was dropped and why.
  case restored(RestoreReport)
  /// The restore's record for the app's analytics, after ``restored(_:)`` when the store held
  /// something for the scene (never at a scene's first launch): no scene id, no route value
  /// (Docs/Outcomes.md). Forward `jsonLine` as it is.
  /// The store keeps the newest records too (``/WaypointSQLite/SnapshotStore/restoreOutcomes()``).
  case restoredOutcome(RestoreOutcome)
  /// A save finished: `wrote` is `false` when the state equalled the latest snapshot.
  case saved(snapshotID: Int64, wrote: Bool)
  /// A save failed; the state is saved again on the next change or flush. The error's
  /// ``/WaypointSQLite/StoreError/code`` says why (`diskFull`, `busy`, `readOnly`, `replaced`, …),
  /// its description names the file and the cause.
  case saveFailed(StoreError)
  /// Routes that the registry cannot record (unregistered types, values `JSONEncoder` refuses) were
  /// left out of the saved snapshot, each named with its place; on a stack, the routes above such a
  /// route went with it (they were reached through it) and are not named.
  case unrecorded([String])
  /// The crash-loop guard was told that the restored UI came up.
  case confirmed
  /// Telling the crash-loop guard failed; the error says why.
  case confirmationFailed(StoreError)
  /// A deep link was followed (``SceneNavigator/open(_:rule:)``).
  case linkOpened(URL)
  /// A deep link was refused and the state left as it was: the URL and why.
  case linkRefused(URL, String)

  /// One line for a log.
  public var description: String {
    switch self {
    case .restored(let report):
      "restored: \(report.outcome.rawValue), \(report.dropped.count) dropped"
    case .restoredOutcome(let outcome):
      "restore outcome: \(outcome.outcome.rawValue), \(outcome.items.count) kinds of items"
    case .saved(let id, let wrote): wrote ? "saved snapshot \(id)" : "unchanged (snapshot \(id))"
    case .saveFailed(let error): "save failed: \(error)"
    case .unrecorded(let places): "not saved: \(places.joined(separator: "; "))"
    case .confirmed: "restore confirmed"
    case .confirmationFailed(let error): "confirmation failed: \(error)"
    case .linkOpened(let url): "opened \(url.absoluteString.prefix(200))"
    case .linkRefused(let url, let why): "refused \(url.absoluteString.prefix(200)): \(why)"
    }
  }
}

/// Where a ``SceneNavigator`` keeps its state.
public enum NavigatorPersistence: Sendable {
  /// No store was given (previews, tests): nothing is restored or saved.
  case inMemory
  /// Restored from and saved to the store at this path.
  case store(path: String)
  /// The store could not be opened: the navigator works, but nothing is restored or saved. The
  /// error's ``/WaypointSQLite/StoreError/code`` says why, its description names the file and the
  /// cause.
  case unavailable(StoreError)
}

extension NavigatorPersistence: Equatable {
  /// Equal kinds at equal paths; two `unavailable` values when their errors have the same code
  /// and description.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.inMemory, .inMemory): true
    case (.store(let a), .store(let b)): a == b
    case (.unavailable(let a), .unavailable(let b)):
      a.code == b.code && a.description == b.description
    default: false
    }
  }
}
