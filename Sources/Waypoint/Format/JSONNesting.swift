/// A linear scan of JSON text that measures how deeply arrays and objects nest, run before any
/// parser sees the text.
///
/// It does not validate JSON; it only guarantees that what reaches `JSONDecoder` cannot exhaust the
/// stack. Brackets inside strings, including escaped quotes, are not counted.
enum JSONNesting {
  /// Whether no array or object in `bytes` is nested deeper than `limit` levels.
  static func staysWithin(_ limit: Int, _ bytes: some Collection<UInt8>) -> Bool {
    var depth = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return false }
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
      default:
        break
      }
    }
    return true
  }
}
