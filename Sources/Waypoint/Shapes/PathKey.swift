/// One step of a coding path, built the way `JSONDecoder` builds its own: array indices and
/// dictionary keys that read as integers have an `intValue` (and print as `[2]`).
struct PathKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  /// A member of a `[String: Value]`: `JSONDecoder` gives `"2"` (and `"+2"`, `"02"`) the
  /// `intValue` 2.
  init(dictionaryKey key: String) {
    stringValue = key
    intValue = Int(key)
  }

  init?(stringValue: String) {
    self.init(stringValue)
  }

  init?(intValue: Int) {
    self.init(index: intValue)
  }
}
