import Foundation

/// A linear scan of JSON text that measures how deeply arrays and objects nest, run before any
/// parser sees the text.
///
/// It does not validate JSON; it only guarantees that what reaches `JSONDecoder` cannot exhaust the
/// stack. Brackets inside strings, including escaped quotes, are not counted.
enum JSONNesting {
  /// Whether no array or object in `bytes` is nested deeper than `limit` levels.
  static func staysWithin(_ limit: Int, _ bytes: some Collection<UInt8>) -> Bool {
    // Contiguous bytes (Data, arrays: every caller) are scanned through a pointer; a
    // `Data.Iterator` stepped byte by byte cost more than the rest of reading a document.
    if let answer = bytes.withContiguousStorageIfAvailable({ staysWithin(limit, buffer: $0) }) {
      return answer
    }
    if let data = bytes as? Data {
      return data.withUnsafeBytes {
        staysWithin(limit, buffer: $0.assumingMemoryBound(to: UInt8.self))
      }
    }
    return staysWithin(limit, sequence: bytes)
  }

  private static func staysWithin(_ limit: Int, buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    staysWithin(limit, sequence: buffer)
  }

  @inline(__always)
  private static func staysWithin(_ limit: Int, sequence bytes: some Sequence<UInt8>) -> Bool {
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
