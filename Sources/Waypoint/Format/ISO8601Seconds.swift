import Foundation

/// Fast formatting and parsing of the one date form the snapshot format writes,
/// `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds). Parsing other ISO 8601 forms falls back to
/// Foundation.
package enum ISO8601Seconds {
  /// The first and last second the format writes: 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
  package static let representable: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// `2026-11-29T12:00:00Z` for a date, truncated to whole seconds, in UTC. Never traps: a date
  /// before year 0 or after year 9999 (a stored value near ±2^63 seconds, infinity) is written as
  /// the nearest representable second, and NaN as 1970-01-01T00:00:00Z.
  package static func format(_ date: Date) -> String {
    let (year, month, day, hour, minute, second) = components(date)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var yearText = String(year)
    if year >= 0 && year < 1000 {
      yearText = String(repeating: "0", count: 4 - yearText.count) + yearText
    }
    return
      "\(yearText)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
  }

  /// The UTC year, month, day, hour, minute and second ``format(_:)`` writes for `date`: the year
  /// within 0...9999, never trapping (see ``format(_:)``).
  package static func components(_ date: Date) -> (
    year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
  ) {
    let seconds = clampedSeconds(date.timeIntervalSince1970)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
  }

  /// Whole seconds of `interval` (rounded down) within ``representable``, without trapping.
  package static func clampedSeconds(_ interval: TimeInterval) -> Int64 {
    guard !interval.isNaN else { return 0 }
    let bounds = representable
    if interval <= Double(bounds.lowerBound) { return bounds.lowerBound }
    if interval >= Double(bounds.upperBound) { return bounds.upperBound }
    return Int64(interval.rounded(.down))
  }

  /// The date of a valid `YYYY-MM-DDTHH:MM:SSZ`, or of any other ISO 8601 form Foundation reads;
  /// `nil` for anything else, including impossible dates in the seconds form (`2026-02-30…`) and
  /// dates outside the years 0000–9999 that ``format(_:)`` could not write back
  /// (`20221-06-01T04:09:15Z`, which Foundation reads). A form with a fraction of a second
  /// (`04:09:01.5Z`) gives its time rounded down to whole seconds, as the format stores it, so that
  /// the date writes back as it reads.
  package static func parse(_ text: String) -> Date? {
    guard let date = parseAnyYear(text) else { return nil }
    let interval = date.timeIntervalSince1970
    guard interval >= Double(representable.lowerBound),
      interval < Double(representable.upperBound) + 1
    else { return nil }
    return Date(timeIntervalSince1970: interval.rounded(.down))
  }

  private static func parseAnyYear(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    let isSecondsForm =
      bytes.count == 20 && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x54
      && bytes[13] == 0x3A
      && bytes[16] == 0x3A && bytes[19] == 0x5A
    // Foundation's parser is lenient (it reads February 30 as March 2), so the form Waypoint writes
    // is checked here strictly and never handed to it.
    guard isSecondsForm else { return try? Date(text, strategy: .iso8601) }
    guard let year = number(bytes[0..<4]), let month = number(bytes[5..<7]),
      let day = number(bytes[8..<10]),
      let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
      let second = number(bytes[17..<19]),
      (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
      minute < 60,
      second < 60
    else { return nil }
    let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
    var value: Int64 = 0
    for digit in digits {
      guard digit >= 0x30 && digit <= 0x39 else { return nil }
      value = value * 10 + Int64(digit - 0x30)
    }
    return value
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  // Howard Hinnant's days_from_civil and civil_from_days (proleptic Gregorian calendar).
  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
