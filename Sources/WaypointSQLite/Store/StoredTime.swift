import Foundation
import Waypoint

/// Save times as the store keeps them: whole seconds since 1970 in an `INTEGER` column.
///
/// Both directions are total. A stored value is hostile (it may be anything from −2^63 to 2^63−1)
/// and a date may be anything a `Double` holds, so no conversion here can trap.
package enum StoredTime {
  /// Whole seconds of `date`, rounded down and clamped to the seconds the snapshot format can write
  /// (years 0000 to 9999, ``/Waypoint/ISO8601Seconds/representable``), so that the column always
  /// matches the document's `savedAt`; 0 for NaN.
  package static func seconds(_ date: Date) -> Int64 {
    ISO8601Seconds.clampedSeconds(date.timeIntervalSince1970)
  }

  /// The date of a stored value, whatever it is (a `Double` holds every `Int64`, rounded).
  package static func date(_ seconds: Int64) -> Date {
    Date(timeIntervalSince1970: TimeInterval(seconds))
  }
}
