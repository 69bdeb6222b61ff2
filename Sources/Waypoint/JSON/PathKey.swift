/// One step of a coding path, built the way `JSONDecoder` builds its own: array indices and
/// dictionary keys that read as integers have an `intValue` (and print as `[2]`).
package struct PathKey: CodingKey {
  package var stringValue: String
  package var intValue: Int?

  package init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  package init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  /// A member of a `[String: Value]`: `JSONDecoder` gives `"2"` (and `"+2"`, `"02"`) the
  /// `intValue` 2.
  package init(dictionaryKey key: String) {
    stringValue = key
    intValue = Int(key)
  }

  package init?(stringValue: String) {
    self.init(stringValue)
  }

  package init?(intValue: Int) {
    self.init(index: intValue)
  }
}
