import Foundation
import Testing

@testable import Waypoint

/// The strict reader's fast scanning (strings 8 bytes at a time, integers on a pointer, keys and
/// tags recognised where they are) against plain byte-by-byte readings of the same rules, over
/// hostile bytes: quotes, backslashes, control characters, bytes outside ASCII valid and not
/// (overlong forms, surrogates, cut sequences), overlong numbers, strings ending at the buffer's
/// end.
@Suite("The strict reader's fast scanning agrees with a byte-by-byte reading")
struct StrictScanningTests {
  /// Pieces that hostile strings are made of.
  static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("Zq".utf8), Array("0123456789".utf8), Array(" ".utf8), [0x7F],
    [0x22], [0x5C], [0x5C, 0x22], [0x5C, 0x5C], [0x5C, 0x6E], [0x00], [0x09], [0x0A], [0x1F],
    Array("é".utf8), Array("€".utf8), Array("😀".utf8), Array("\u{10FFFF}".utf8),
    // Not valid UTF-8: a lone continuation, overlong forms, a surrogate, above U+10FFFF, cut.
    [0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF],
  ]

  /// Random bytes made of ``pieces``, mostly plain ones.
  static func hostile(_ generator: inout SplitMix64, count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<count {
      if Int.random(in: 0..<4, using: &generator) == 0 {
        bytes += pieces.randomElement(using: &generator)!
      } else {
        bytes += pieces[Int.random(in: 0..<5, using: &generator)]
      }
    }
    return bytes
  }

  /// The range that the reader's former byte-by-byte `rawString()` gave, reading at `index`:
  /// spaces, then a string without escapes (`\"` around it in an escaped value), valid UTF-8,
  /// no control characters; ASCII only when `asciiOnly`. `nil` when unsure.
  static func referenceString(_ bytes: [UInt8], at index: Int, escaped: Bool, asciiOnly: Bool)
    -> Range<Int>?
  {
    var index = index
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || (!escaped && (byte == 0x09 || byte == 0x0A || byte == 0x0D)) else {
        break
      }
      index += 1
    }
    let open: [UInt8] = escaped ? [0x5C, 0x22] : [0x22]
    guard index + open.count <= bytes.count, Array(bytes[index..<(index + open.count)]) == open
    else { return nil }
    let start = index + open.count
    var offset = start
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte >= 0x20, byte < 0x80, byte != 0x22, byte != 0x5C {
        offset += 1
        continue
      }
      if byte == 0x22 { return escaped ? nil : start..<offset }
      if byte == 0x5C {
        guard escaped, offset + 1 < bytes.count, bytes[offset + 1] == 0x22 else { return nil }
        return start..<offset
      }
      guard byte >= 0x80, !asciiOnly else { return nil }
      let length = bytes.withUnsafeBytes { UTF8Sequence.length(in: $0, at: offset) }
      guard let length else { return nil }
      offset += length
    }
    return nil
  }

  /// A reader of `bytes` at `index`, in the escaped form or not.
  static func reader(_ bytes: UnsafeRawBufferPointer, escaped: Bool, at index: Int)
    -> StrictJSONReader
  {
    var reader =
      escaped
      ? StrictJSONReader(escaped: bytes, maxDepth: 64) : StrictJSONReader(bytes, maxDepth: 64)
    reader.advance(to: index)
    return reader
  }

  @Test(
    "strings: the same range or the same doubt, in both forms", arguments: [21, 22] as [UInt64])
  func strings(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    var read = 0
    for round in 0..<20_000 {
      let escaped = round % 2 == 1
      var bytes = Self.hostile(&generator, count: Int.random(in: 0..<3, using: &generator))
      bytes += Int.random(in: 0..<8, using: &generator) == 0 ? [0x20] : []
      bytes += escaped ? [0x5C, 0x22] : [0x22]
      bytes += Self.hostile(&generator, count: Int.random(in: 0..<24, using: &generator))
      // Mostly closed, sometimes cut short at the end of the buffer.
      if Int.random(in: 0..<6, using: &generator) > 0 { bytes += escaped ? [0x5C, 0x22] : [0x22] }
      bytes += Self.hostile(&generator, count: Int.random(in: 0..<3, using: &generator))
      let index = Int.random(in: 0...min(3, bytes.count), using: &generator)
      for asciiOnly in [false, true] {
        let expected = Self.referenceString(
          bytes, at: index, escaped: escaped, asciiOnly: asciiOnly)
        let (answer, after) = bytes.withUnsafeBytes { buffer in
          var reader = Self.reader(buffer, escaped: escaped, at: index)
          let range = try? (asciiOnly ? reader.asciiRawString() : reader.rawString())
          return (range, reader.index)
        }
        #expect(answer == expected, "\(bytes) at \(index), escaped \(escaped)")
        if let expected, answer == expected {
          read += 1
          #expect(after == expected.upperBound + (escaped ? 2 : 1), "\(bytes)")
        }
      }
    }
    #expect(read > 2000, "\(read) read")
  }

  @Test("plain runs: the first byte that is not plain, 8 at a time and one at a time")
  func plainRuns() {
    var generator = SplitMix64(state: 23)
    for _ in 0..<20_000 {
      let bytes = Self.hostile(&generator, count: Int.random(in: 0..<30, using: &generator))
      let start = Int.random(in: 0...bytes.count, using: &generator)
      var expected = start
      while expected < bytes.count, bytes[expected] >= 0x20, bytes[expected] < 0x80,
        bytes[expected] != 0x22, bytes[expected] != 0x5C
      {
        expected += 1
      }
      let end = bytes.withUnsafeBytes {
        StrictJSONReader($0, maxDepth: 1).plainRunEnd(from: start)
      }
      #expect(end == expected, "\(bytes) from \(start)")
    }
  }

  /// The integer the reader's former byte-by-byte `integer64()` read at the start: spaces, then
  /// `-?(0|[1-9][0-9]*)` of at most 18 digits, not followed by a digit, `.`, `e` or `E`.
  static func referenceInteger(_ bytes: [UInt8]) -> Int64? {
    var index = 0
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    let digits = bytes[index...].prefix { $0 >= 0x30 && $0 <= 0x39 }
    guard !digits.isEmpty, digits.count <= 18, digits.count == 1 || digits.first != 0x30
    else { return nil }
    let after = index + digits.count
    if after < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(
        bytes[after])
    {
      return nil
    }
    let value = Int64(String(decoding: digits, as: UTF8.self))!
    return negative ? -value : value
  }

  @Test("integers: the same value or the same doubt, overlong ones included")
  func integers() {
    var generator = SplitMix64(state: 24)
    let alphabet = Array("0123456789".utf8) + Array("-.eE+ x".utf8)
    var read = 0
    for round in 0..<20_000 {
      var bytes: [UInt8] = []
      if round % 3 == 0 { bytes.append(UInt8(ascii: "-")) }
      let digits = Int.random(in: 0..<22, using: &generator)
      for _ in 0..<digits {
        bytes.append(UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator))
      }
      for _ in 0..<Int.random(in: 0..<3, using: &generator) {
        bytes.append(alphabet.randomElement(using: &generator)!)
      }
      let expected = Self.referenceInteger(bytes)
      let answer = bytes.withUnsafeBytes { buffer in
        var reader = StrictJSONReader(buffer, maxDepth: 1)
        return try? reader.integer64()
      }
      #expect(answer == expected, "\(String(decoding: bytes, as: UTF8.self))")
      if expected != nil { read += 1 }
    }
    for text in [
      "999999999999999999", "-999999999999999999", "1000000000000000000", "0", "-0", "01", "-",
      "",
    ] {
      let answer = Array(text.utf8).withUnsafeBytes { buffer in
        var reader = StrictJSONReader(buffer, maxDepth: 1)
        return try? reader.integer64()
      }
      #expect(answer == Self.referenceInteger(Array(text.utf8)), "\(text)")
    }
    #expect(read > 2000, "\(read) read")
  }

  @Test("a name recognised where it is is the string the reader scans there")
  func names() {
    var generator = SplitMix64(state: 25)
    let names = ["", "a", "id", "page", "productId", "Bench.Route", "variant", "ab\u{7F}cdefghij"]
      .map { Array($0.utf8) }
    var recognised = 0
    for round in 0..<20_000 {
      let escaped = round % 2 == 1
      let name = names.randomElement(using: &generator)!
      let quote: [UInt8] = escaped ? [0x5C, 0x22] : [0x22]
      var bytes = quote
      // The name, or bytes near it: cut, changed, longer.
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: bytes += name.dropLast()
      case 1:
        var changed = name
        if !changed.isEmpty {
          changed[Int.random(in: 0..<changed.count, using: &generator)] ^= 0x01
        }
        bytes += changed
      case 2: bytes += name + Self.hostile(&generator, count: 1)
      default: bytes += name
      }
      if Int.random(in: 0..<5, using: &generator) > 0 { bytes += quote }
      bytes += Self.hostile(&generator, count: Int.random(in: 0..<10, using: &generator))
      let packed = StrictJSONReader.packed(name)
      let (taken, after) = bytes.withUnsafeBytes { buffer in
        var reader = Self.reader(buffer, escaped: escaped, at: 0)
        let range = reader.takeName(0..<name.count, of: name, prefix: packed)
        return (range, reader.index)
      }
      let scanned = Self.referenceString(bytes, at: 0, escaped: escaped, asciiOnly: false)
      let isName = scanned.map { Array(bytes[$0]) == name } ?? false
      #expect((taken != nil) == isName, "\(bytes), name \(name)")
      if let taken {
        recognised += 1
        #expect(taken == scanned, "\(bytes)")
        #expect(after == taken.upperBound + quote.count, "\(bytes)")
      } else {
        #expect(after == 0, "moved on \(bytes)")
      }
    }
    #expect(recognised > 2000, "\(recognised) recognised")
  }
}
