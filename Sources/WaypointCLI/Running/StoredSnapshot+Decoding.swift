import Foundation
import Waypoint
import WaypointSQLite

extension StoredSnapshot {
  /// The document read back, or why it cannot be: over the size limit (passed without its bytes by
  /// ``SnapshotStore/forEachSnapshot(_:)``), damaged, or from a newer format.
  func decoded(limits: InputLimits) -> Result<SceneSnapshot, SnapshotFormatError> {
    guard info.byteCount <= limits.maxDocumentBytes else {
      return .failure(.tooLarge(byteCount: info.byteCount, limit: limits.maxDocumentBytes))
    }
    do throws(SnapshotFormatError) {
      return .success(try SceneSnapshot(decoding: document, limits: limits))
    } catch {
      return .failure(error)
    }
  }
}
