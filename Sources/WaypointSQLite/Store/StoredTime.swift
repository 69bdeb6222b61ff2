import Foundation

/// Save times as the store keeps them: whole seconds since 1970 in an `INTEGER` column.
///
/// Both directions are total. A stored value is hostile (it may be anything from −2^63 to 2^63−1)
/// and a date may be anything a `Double` holds, so no conversion here can trap.
package enum StoredTime {
  /// The seconds the snapshot format can write (years 0000 to 9999), so that the column always
  /// matches the document's `savedAt`.
  package static let representable: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Whole seconds of `date`, rounded down and clamped to ``representable``; 0 for NaN.
  package static func seconds(_ date: Date) -> Int64 {
    let interval = date.timeIntervalSince1970
    guard !interval.isNaN else { return 0 }
    if interval <= Double(representable.lowerBound) { return representable.lowerBound }
    if interval >= Double(representable.upperBound) { return representable.upperBound }
    return Int64(interval.rounded(.down))
  }

  /// The date of a stored value, whatever it is (a `Double` holds every `Int64`, rounded).
  package static func date(_ seconds: Int64) -> Date {
    Date(timeIntervalSince1970: TimeInterval(seconds))
  }
}
