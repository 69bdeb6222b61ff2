import Foundation

/// Reading without making values: strings as byte ranges, integers as
/// `Int64`. For judging whole stores without allocating per document (``FastPrediction``).
extension StrictJSONReader {
  /// A string without escapes, as the range of its bytes between the quotes (valid UTF-8, no
  /// control characters). A string with an escape is unsure, even a valid one.
  mutating func rawString() throws(Unsure) -> Range<Int> {
    try scanRawString(asciiOnly: false)
  }

  /// ``rawString()`` of a string of ASCII bytes only (a key compared with ASCII names): any byte
  /// outside ASCII is unsure.
  mutating func asciiRawString() throws(Unsure) -> Range<Int> {
    try scanRawString(asciiOnly: true)
  }

  /// ``rawString()``, or ``asciiRawString()`` when `asciiOnly`; in a reader of an escaped value,
  /// a string between `\"` and `\"`, without escapes, control characters or quotes inside.
  /// Runs of plain bytes are skipped 8 at a time (``plainRunEnd(from:)``).
  @inline(__always)
  private mutating func scanRawString(asciiOnly: Bool) throws(Unsure) -> Range<Int> {
    skipSpace()
    let count = bytes.count
    let start: Int
    if quotesEscaped {
      guard index + 1 < count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "\"")
      else { throw Unsure() }
      start = index + 2
    } else {
      guard index < count, bytes[index] == UInt8(ascii: "\"") else { throw Unsure() }
      start = index + 1
    }
    var offset = start
    while true {
      offset = plainRunEnd(from: offset)
      guard offset < count else {
        index = offset
        throw Unsure()
      }
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        // A bare quote ends a string, but is not in an escaped value's.
        guard !quotesEscaped else {
          index = offset
          throw Unsure()
        }
        index = offset + 1
        return start..<offset
      }
      if byte == UInt8(ascii: "\\") {
        // Any escape is unsure, but `\"` ends an escaped value's string.
        guard quotesEscaped, offset + 1 < count, bytes[offset + 1] == UInt8(ascii: "\"") else {
          index = offset
          throw Unsure()
        }
        index = offset + 2
        return start..<offset
      }
      // A control character, or a byte outside ASCII where only ASCII is read.
      guard byte >= 0x80, !asciiOnly else {
        index = offset
        throw Unsure()
      }
      index = offset
      offset += try utf8Sequence()
    }
  }

  /// The offset of the first byte from `offset` on (or the end) that is not plain inside a
  /// string: a quote, a backslash, a control character or a byte outside ASCII. Eight bytes are
  /// tested at a time, as one word (``specialBytes(_:)``).
  @inline(__always)
  func plainRunEnd(from offset: Int) -> Int {
    let count = bytes.count
    guard let base = bytes.baseAddress, offset < count else { return offset }
    var offset = offset
    while count - offset >= 8 {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      let special = Self.specialBytes(word)
      if special != 0 { return offset + special.trailingZeroBitCount >> 3 }
      offset += 8
    }
    while offset < count {
      let byte = base.load(fromByteOffset: offset, as: UInt8.self)
      guard byte &- 0x20 < 0x60, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else {
        return offset
      }
      offset += 1
    }
    return offset
  }

  /// The high bit of each byte of `word` (its first byte the lowest) that is not plain in a
  /// string (see ``plainRunEnd(from:)``), exact at the lowest one set: the usual tests of a word
  /// for a zero byte and a byte below 0x20, whose borrows mark only bytes above a marked one.
  @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let quote = (quotes &- ones) & ~quotes
    let backslash = (backslashes &- ones) & ~backslashes
    let control = (word &- ones &* 0x20) & ~word
    return (quote | backslash | control | word) & (ones &* 0x80)
  }

  /// An integer written plainly (`-?(0|[1-9][0-9]*)`, at most 18 digits, so that it fits), not
  /// followed by a fraction or an exponent, as an `Int64` on every platform.
  mutating func integer64() throws(Unsure) -> Int64 {
    skipSpace()
    let count = bytes.count
    guard let base = bytes.baseAddress, index < count else { throw Unsure() }
    var offset = index
    let negative = base.load(fromByteOffset: offset, as: UInt8.self) == UInt8(ascii: "-")
    if negative { offset += 1 }
    let start = offset
    // 18 digits stay below Int64.max.
    let limit = min(count, start + 18)
    var value: Int64 = 0
    while offset < limit {
      let digit = base.load(fromByteOffset: offset, as: UInt8.self) &- 0x30
      guard digit < 10 else { break }
      value = value &* 10 &+ Int64(digit)
      offset += 1
    }
    index = offset
    guard offset > start, offset == start + 1 || bytes[start] != 0x30 else { throw Unsure() }
    if offset < count {
      // A 19th digit, a fraction or an exponent.
      let byte = base.load(fromByteOffset: offset, as: UInt8.self)
      guard byte &- 0x30 >= 10, byte != UInt8(ascii: "."), byte | 0x20 != UInt8(ascii: "e") else {
        throw Unsure()
      }
    }
    return negative ? -value : value
  }

  /// Whether the bytes in `first` equal those in `second`.
  func bytes(in first: Range<Int>, equalBytesIn second: Range<Int>) -> Bool {
    guard first.count == second.count else { return false }
    guard let base = bytes.baseAddress, !first.isEmpty else { return true }
    return memcmp(base + first.lowerBound, base + second.lowerBound, first.count) == 0
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
    guard let base = bytes.baseAddress, !range.isEmpty else { return true }
    return other.withUnsafeBytes { memcmp(base + range.lowerBound, $0.baseAddress!, range.count) }
      == 0
  }

  /// Whether the bytes in `range` are those in `other` of `text`.
  func bytes(in range: Range<Int>, equalBytesIn other: Range<Int>, of text: [UInt8]) -> Bool {
    guard range.count == other.count else { return false }
    guard let base = bytes.baseAddress, !range.isEmpty else { return true }
    return text.withUnsafeBytes {
      memcmp(base + range.lowerBound, $0.baseAddress! + other.lowerBound, range.count) == 0
    }
  }

  /// The first eight bytes in `range` (all of them when it is shorter) as one word, packed as
  /// ``packed(_:)`` packs them: names are compared a word at a time.
  @inline(__always)
  func prefixWord(in range: Range<Int>) -> UInt64 {
    let count = min(range.count, 8)
    guard let base = bytes.baseAddress, count > 0 else { return 0 }
    if bytes.count - range.lowerBound >= 8 {
      let word = UInt64(
        littleEndian: base.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
      return count == 8 ? word : word & ((1 &<< (UInt64(count) &* 8)) &- 1)
    }
    var word: UInt64 = 0
    for offset in 0..<count {
      let byte = base.load(fromByteOffset: range.lowerBound + offset, as: UInt8.self)
      word |= UInt64(byte) &<< (UInt64(offset) &* 8)
    }
    return word
  }

  /// The first eight of `bytes` (all of them when there are fewer) as one word, the first the
  /// lowest.
  static func packed(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var word: UInt64 = 0
    for (offset, byte) in bytes.prefix(8).enumerated() {
      word |= UInt64(byte) &<< (UInt64(offset) &* 8)
    }
    return word
  }

  /// The eight bytes at `offset` as one word, packed as ``packed(_:)`` packs them; `nil` when
  /// fewer than eight bytes are left there.
  @inline(__always)
  func eightBytes(at offset: Int) -> UInt64? {
    guard let base = bytes.baseAddress, offset >= 0, bytes.count - offset >= 8 else { return nil }
    return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The range of the string at `index` (no space before it) when it is the name of the bytes
  /// `name` of `text`, whose first eight are packed in `prefix` (``packed(_:)``), written as
  /// ``rawString()`` reads it; the reader is then after it. `nil`, the reader unmoved, for any
  /// other bytes. The name must be plain in a string (no quote, backslash or control character;
  /// see ``plainRunEnd(from:)``), so that ``rawString()`` gives the same range, and ASCII where
  /// ``asciiRawString()`` would read the key.
  @inline(__always)
  mutating func takeName(_ name: Range<Int>, of text: [UInt8], prefix: UInt64) -> Range<Int>? {
    guard let opening = nameOpening() else { return nil }
    return takeName(
      at: opening, name, of: text, prefix: prefix, mask: Self.mask(count: name.count))
  }

  /// Where the text of a string opened at `index` (no space before it) starts, and its first
  /// eight bytes packed in a word (fewer, zero above them, near the end of the bytes), for
  /// ``takeName(at:_:of:prefix:mask:)`` to compare with names; `nil` when no string opens there.
  @inline(__always)
  func nameOpening() -> (start: Int, word: UInt64)? {
    let count = bytes.count
    guard let base = bytes.baseAddress, index >= 0 else { return nil }
    let start: Int
    if quotesEscaped {
      guard count - index >= 2, base.load(fromByteOffset: index, as: UInt8.self) == 0x5C,
        base.load(fromByteOffset: index + 1, as: UInt8.self) == 0x22
      else { return nil }
      start = index + 2
    } else {
      guard index < count, base.load(fromByteOffset: index, as: UInt8.self) == 0x22 else {
        return nil
      }
      start = index + 1
    }
    if count - start >= 8 {
      return (
        start, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
      )
    }
    var word: UInt64 = 0
    for offset in 0..<(count - start) {
      let byte = base.load(fromByteOffset: start + offset, as: UInt8.self)
      word |= UInt64(byte) &<< (UInt64(offset) &* 8)
    }
    return (start, word)
  }

  /// ``takeName(_:of:prefix:)`` of the string whose opening ``nameOpening()`` found, `mask`
  /// being ``mask(count:)`` of the name's length: a name that is not the string's text is told
  /// apart mostly by one test of a word.
  @inline(__always)
  mutating func takeName(
    at opening: (start: Int, word: UInt64), _ name: Range<Int>, of text: [UInt8],
    prefix: UInt64, mask: UInt64
  ) -> Range<Int>? {
    guard opening.word & mask == prefix else { return nil }
    let start = opening.start
    let end = start + name.count
    let count = bytes.count
    if quotesEscaped {
      guard count - end >= 2, bytes[end] == UInt8(ascii: "\\"),
        bytes[end + 1] == UInt8(ascii: "\"")
      else { return nil }
    } else {
      guard count - end >= 1, bytes[end] == UInt8(ascii: "\"") else { return nil }
    }
    // Past the first eight bytes, which the word compared.
    var offset = 8
    while offset < name.count {
      guard bytes[start + offset] == text[name.lowerBound + offset] else { return nil }
      offset += 1
    }
    index = end + (quotesEscaped ? 2 : 1)
    return start..<end
  }

  /// The mask of the first `count` bytes of a word packed as ``packed(_:)`` packs (all eight
  /// from 8 on).
  @inline(__always)
  static func mask(count: Int) -> UInt64 {
    count >= 8 ? .max : (1 &<< (UInt64(count) &* 8)) &- 1
  }
}
