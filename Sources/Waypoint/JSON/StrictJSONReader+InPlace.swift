import Foundation

/// Reading without making values: strings as byte ranges, integers as
/// `Int64`. For judging whole stores without allocating per document (``FastPrediction``).
extension StrictJSONReader {
  /// A string without escapes, as the range of its bytes between the quotes (valid UTF-8, no
  /// control characters). A string with an escape is unsure, even a valid one.
  mutating func rawString() throws(Unsure) -> Range<Int> {
    skipSpace()
    if quotesEscaped { return try escapedRawString() }
    guard peek() == UInt8(ascii: "\"") else { throw Unsure() }
    let start = index + 1
    // The usual bytes with the index in a local; the rest (UTF-8, the end) as before.
    var offset = start
    let count = bytes.count
    while offset < count {
      let byte = bytes[offset]
      if byte &- 0x20 < 0x60, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        offset += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        index = offset + 1
        return start..<offset
      case UInt8(ascii: "\\"), 0..<0x20:
        index = offset
        throw Unsure()
      default:
        index = offset
        offset += try utf8Sequence()
      }
    }
    index = offset
    throw Unsure()
  }

  /// ``rawString()`` of a reader of an escaped value: a string between `\"` and `\"`, without
  /// escapes, control characters or quotes inside, valid UTF-8.
  private mutating func escapedRawString() throws(Unsure) -> Range<Int> {
    let count = bytes.count
    guard index + 1 < count, bytes[index] == UInt8(ascii: "\\"),
      bytes[index + 1] == UInt8(ascii: "\"")
    else { throw Unsure() }
    let start = index + 2
    var offset = start
    while offset < count {
      let byte = bytes[offset]
      if byte &- 0x20 < 0x60, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        offset += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\\"):
        guard offset + 1 < count, bytes[offset + 1] == UInt8(ascii: "\"") else {
          index = offset
          throw Unsure()
        }
        index = offset + 2
        return start..<offset
      case UInt8(ascii: "\""), 0..<0x20:
        index = offset
        throw Unsure()
      default:
        index = offset
        offset += try utf8Sequence()
      }
    }
    index = offset
    throw Unsure()
  }

  /// An integer written plainly (`-?(0|[1-9][0-9]*)`, at most 18 digits, so that it fits), not
  /// followed by a fraction or an exponent, as an `Int64` on every platform.
  mutating func integer64() throws(Unsure) -> Int64 {
    skipSpace()
    var negative = false
    if peek() == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    let start = index
    var value: Int64 = 0
    while let byte = peek(), byte >= 0x30, byte <= 0x39 {
      // 18 digits stay below Int64.max.
      guard index - start < 18 else { throw Unsure() }
      value = value * 10 + Int64(byte - 0x30)
      index += 1
    }
    let count = index - start
    guard count > 0, count == 1 || bytes[start] != 0x30 else { throw Unsure() }
    if let byte = peek(), byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") {
      throw Unsure()
    }
    return negative ? -value : value
  }

  /// Whether the bytes in `first` equal those in `second`.
  func bytes(in first: Range<Int>, equalBytesIn second: Range<Int>) -> Bool {
    guard first.count == second.count else { return false }
    var offset = 0
    while offset < first.count {
      guard bytes[first.lowerBound + offset] == bytes[second.lowerBound + offset] else {
        return false
      }
      offset += 1
    }
    return true
  }

  /// The text of the bytes in `range` (valid UTF-8, as ``rawString()`` checked).
  func text(in range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}

extension StrictJSONReader {
  /// The byte at `offset`.
  @inline(__always)
  func byte(at offset: Int) -> UInt8 { bytes[offset] }

  /// Whether the bytes in `range` are those of `word`.
  @inline(__always)
  func bytes(in range: Range<Int>, are word: StaticString) -> Bool {
    guard range.count == word.utf8CodeUnitCount, let base = bytes.baseAddress,
      range.lowerBound >= 0, range.upperBound <= bytes.count
    else { return false }
    return memcmp(base + range.lowerBound, word.utf8Start, range.count) == 0
  }

  /// Whether the bytes in `range` are `other`.
  func bytes(in range: Range<Int>, equalBytes other: [UInt8]) -> Bool {
    guard range.count == other.count else { return false }
    var offset = 0
    while offset < other.count {
      guard bytes[range.lowerBound + offset] == other[offset] else { return false }
      offset += 1
    }
    return true
  }
}
