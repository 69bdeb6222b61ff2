import Foundation
import Waypoint

/// How text output writes dates, sizes and counts.
enum Formatting {
  /// `2026-11-29T12:00:00Z`: ISO 8601 in UTC, whole seconds, as the snapshot format writes it
  /// (``/Waypoint/ISO8601Seconds/format(_:)``, which takes any date a stored column gives).
  static func date(_ date: Date) -> String {
    ISO8601Seconds.format(date)
  }

  /// Reads a date written by ``date(_:)`` (or any ISO 8601 date and time with a time zone, of the
  /// years 0000 to 9999), as the snapshot format reads its dates
  /// (``/Waypoint/ISO8601Seconds/parse(_:)``): in the calendar ``date(_:)`` writes in, the
  /// Gregorian one before 1582 too, so that every date written reads back the same.
  static func parseDate(_ text: String) -> Date? {
    ISO8601Seconds.parse(text)
  }

  /// `812 B`, `3.2 KiB`, `1.5 MiB`.
  static func bytes(_ count: Int) -> String {
    if count < 1024 { return "\(count) B" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(count) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return String(format: "%.1f", value) + " " + units[unit]
  }

  /// `1 snapshot`, `3 snapshots`.
  static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
  }
}

extension Formatting {
  /// `text` safe to print on a terminal: control characters (escape sequences included) and
  /// bidirectional overrides, which a hostile store could use to rewrite the screen, are shown
  /// escaped (`\n`, `\u{1B}`).
  static func printable(_ text: String) -> String {
    // The usual text, printable ASCII, is its own printable form.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0x09: result += "\\t"
      case _ where ControlCharacters.contains(scalar):
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
