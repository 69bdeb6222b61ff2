import Foundation

/// Writes compact JSON bytes by hand, for the few fixed shapes Waypoint writes on every save.
///
/// Strings are escaped as `JSONEncoder` does with `.withoutEscapingSlashes`: `"` and `\` escaped,
/// `\b \f \n \r \t` by name, other control characters as `\u00XX`, everything else as UTF-8. The
/// writer places the commas: call ``key(_:)`` before each member of an object; values of an array
/// follow each other.
///
/// The bytes go into one buffer the writer owns, grown by doubling, with runs of plain text copied
/// at once: an array of bytes appended to piece by piece cost more than the rest of a save.
struct JSONWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes written so far.
  private(set) var count = 0
  /// Whether each open container has no member yet, one bit per level (innermost lowest); the
  /// document shapes written nest a few levels deep, far from the 64 bits.
  private var empty: UInt64 = 0
  /// How many containers are open.
  private var depth = 0

  init(capacity: Int = 1024) {
    self.capacity = max(64, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes written.
  var data: Data { Data(bytes: base, count: count) }

  mutating func beginObject() { open(0x7B) }
  mutating func endObject() { close(0x7D) }
  mutating func beginArray() { open(0x5B) }
  mutating func endArray() { close(0x5D) }

  /// A member's key (with the comma before it when needed); its value follows.
  mutating func key(_ key: String) {
    string(key)
    reserve(1)
    base[count] = 0x3A
    count += 1
    // The value that follows must not get a comma of its own.
    if depth > 0 { empty |= 1 }
  }

  /// A member's key known when the code is written, with no character to escape (checked in
  /// debug builds): its bytes are copied as they are, with the quotes and the colon.
  mutating func key(literal key: StaticString) {
    assert(key.hasPointerRepresentation)
    separate()
    let length = key.utf8CodeUnitCount
    reserve(length + 3)
    base[count] = 0x22
    let start = key.utf8Start
    for index in 0..<length {
      assert(start[index] >= 0x20 && start[index] != 0x22 && start[index] != 0x5C)
      base[count + 1 + index] = start[index]
    }
    base[count + 1 + length] = 0x22
    base[count + 2 + length] = 0x3A
    count += length + 3
    if depth > 0 { empty |= 1 }
  }

  mutating func integer(_ value: Int) {
    separate()
    reserve(21)
    if value < 0 {
      base[count] = 0x2D
      count += 1
    }
    // The magnitude: Int.min has one too.
    var magnitude = value.magnitude
    var length = 1
    var probe = magnitude
    while probe >= 10 {
      probe /= 10
      length += 1
    }
    for index in stride(from: length - 1, through: 0, by: -1) {
      base[count + index] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
      magnitude /= 10
    }
    count += length
  }

  /// A date as the string `YYYY-MM-DDTHH:MM:SSZ` (``ISO8601Seconds/format(_:)``'s text, 20
  /// bytes, written without building a `String`).
  mutating func date(_ date: Date) {
    separate()
    let (year, month, day, hour, minute, second) = ISO8601Seconds.components(date)
    reserve(22)
    base[count] = 0x22
    count += 1
    func digits(_ value: Int64, _ width: Int) {
      var value = value
      for index in stride(from: width - 1, through: 0, by: -1) {
        base[count + index] = UInt8(truncatingIfNeeded: value % 10) + 0x30
        value /= 10
      }
      count += width
    }
    func byte(_ value: UInt8) {
      base[count] = value
      count += 1
    }
    digits(year, 4)
    byte(0x2D)
    digits(month, 2)
    byte(0x2D)
    digits(day, 2)
    byte(0x54)
    digits(hour, 2)
    byte(0x3A)
    digits(minute, 2)
    byte(0x3A)
    digits(second, 2)
    byte(0x5A)
    byte(0x22)
  }

  mutating func string(_ value: String) {
    separate()
    var value = value
    value.withUTF8 { utf8 in
      // At most six bytes per byte (`\u00XX`) and the quotes.
      reserve(utf8.count * 6 + 2)
      var out = base + count
      out.pointee = 0x22
      out += 1
      guard let source = utf8.baseAddress else {
        out.pointee = 0x22
        count = out + 1 - base
        return
      }
      // Most text needs no escape: copy runs of plain bytes at once, found eight bytes a step.
      let length = utf8.count
      var start = 0
      var index = 0
      while index < length {
        if length - index >= 8 {
          let word = UInt64(
            littleEndian: UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self))
          let found = Self.escapedBytes(in: word)
          guard found != 0 else {
            index += 8
            continue
          }
          // The lowest flagged byte is the first to escape (a false flag only ever follows a
          // true one).
          index += found.trailingZeroBitCount >> 3
        } else {
          let byte = source[index]
          guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
            index += 1
            continue
          }
        }
        let byte = source[index]
        Self.copy(source + start, count: index - start, to: &out)
        out = Self.escape(byte, at: out)
        index += 1
        start = index
      }
      Self.copy(source + start, count: length - start, to: &out)
      out.pointee = 0x22
      count = out + 1 - base
    }
  }

  /// Copies a run of plain bytes and moves `out` past it: byte by byte when it is short (most runs
  /// between the quotes of a route's JSON are), where a call to `memmove` costs more.
  @inline(__always)
  private static func copy(
    _ source: UnsafePointer<UInt8>, count: Int, to out: inout UnsafeMutablePointer<UInt8>
  ) {
    if count > 16 {
      out.update(from: source, count: count)
    } else {
      for index in 0..<count { out[index] = source[index] }
    }
    out += count
  }

  /// The high bit of each byte of `word` (first byte lowest) that must be escaped: below 0x20, `"`
  /// or `\`. Bytes above a flagged one may be flagged wrongly (a borrow carries upwards); the
  /// lowest flag is always right.
  @inline(__always)
  private static func escapedBytes(in word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (0x22 &* ones)
    let backslash = word ^ (0x5C &* ones)
    let control = (word &- 0x20 &* ones) & ~word
    let isQuote = (quote &- ones) & ~quote
    let isBackslash = (backslash &- ones) & ~backslash
    return (control | isQuote | isBackslash) & (0x80 &* ones)
  }

  /// Writes the escape of `byte` at `out` and returns the position after it.
  private static func escape(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    out[0] = 0x5C
    let named: UInt8? =
      switch byte {
      case 0x22: 0x22
      case 0x5C: 0x5C
      case 0x08: 0x62
      case 0x0C: 0x66
      case 0x0A: 0x6E
      case 0x0D: 0x72
      case 0x09: 0x74
      default: nil
      }
    if let named {
      out[1] = named
      return out + 2
    }
    func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }
    out[1] = 0x75
    out[2] = 0x30
    out[3] = 0x30
    out[4] = hex(byte >> 4)
    out[5] = hex(byte & 0xF)
    return out + 6
  }

  /// Makes room for `extra` more bytes.
  private mutating func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    let grown = max(capacity * 2, count + extra)
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    larger.update(from: base, count: count)
    base.deallocate()
    base = larger
    capacity = grown
  }

  private mutating func open(_ bracket: UInt8) {
    separate()
    reserve(1)
    base[count] = bracket
    count += 1
    empty = empty << 1 | 1
    depth += 1
  }

  private mutating func close(_ bracket: UInt8) {
    reserve(1)
    base[count] = bracket
    count += 1
    empty >>= 1
    depth -= 1
  }

  /// A comma before a value or key, unless it is the first in its container or follows a key.
  private mutating func separate() {
    guard depth > 0 else { return }
    if empty & 1 != 0 {
      empty &= ~1
    } else {
      reserve(1)
      base[count] = 0x2C
      count += 1
    }
  }
}
