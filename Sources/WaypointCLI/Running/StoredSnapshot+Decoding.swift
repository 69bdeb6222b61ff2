import Foundation
import Waypoint
import WaypointSQLite

extension StoredSnapshot {
  /// The document read back, or why it cannot be: over the size limit (not read by the store),
  /// damaged, or from a newer format.
  func decoded(limits: InputLimits) -> Result<SceneSnapshot, SnapshotFormatError> {
    switch document {
    case .tooLarge(let byteCount, let limit):
      return .failure(.tooLarge(byteCount: byteCount, limit: limit))
    case .read(let data):
      do throws(SnapshotFormatError) {
        return .success(try SceneSnapshot(decoding: data, limits: limits))
      } catch {
        return .failure(error)
      }
    }
  }
}
