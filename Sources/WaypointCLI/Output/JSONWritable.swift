import Foundation
import Waypoint

/// A value that writes itself on a ``JSONStream``: what `--json` documents and export lines are
/// made of. `nil` is written as `null`, dates as ISO 8601 strings in UTC (`2026-11-29T12:00:00Z`).
protocol JSONWritable {
  func write(to json: inout JSONStream)
}

extension String: JSONWritable {
  func write(to json: inout JSONStream) { json.string(self) }
}

extension Int: JSONWritable {
  func write(to json: inout JSONStream) { json.integer(self) }
}

extension Int64: JSONWritable {
  func write(to json: inout JSONStream) { json.integer(self) }
}

extension Int32: JSONWritable {
  func write(to json: inout JSONStream) { json.integer(self) }
}

extension Bool: JSONWritable {
  func write(to json: inout JSONStream) { json.bool(self) }
}

extension Date: JSONWritable {
  func write(to json: inout JSONStream) { json.string(Formatting.date(self)) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
  func write(to json: inout JSONStream) {
    if let value = self { value.write(to: &json) } else { json.null() }
  }
}

extension Array: JSONWritable where Element: JSONWritable {
  func write(to json: inout JSONStream) {
    json.beginArray()
    for element in self { element.write(to: &json) }
    json.endArray()
  }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
  /// Members in the order of their keys' UTF-8 bytes (JSONEncoder's `.sortedKeys`), so that the
  /// output does not change from run to run (Swift's `<` on `String` does not order every mix of
  /// composed and decomposed characters consistently).
  func write(to json: inout JSONStream) {
    json.beginObject()
    for key in keys.sorted(by: SceneSnapshot.precedes) { json.member(key, self[key]) }
    json.endObject()
  }
}
