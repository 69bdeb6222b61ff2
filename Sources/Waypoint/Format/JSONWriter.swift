import Foundation

/// Writes compact JSON bytes by hand: the snapshot documents of every save, and the route payloads
/// of ``RouteEncoder``.
///
/// Strings are escaped as `JSONEncoder` does: `"` and `\` escaped, `\b \f \n \r \t` by name, other
/// control characters as `\u00XX`, `/` as `\/` only when asked (documents are written as with
/// `.withoutEscapingSlashes`, route payloads as with the default), everything else as UTF-8. The
/// writer places the commas of ``beginObject()`` and ``beginArray()`` containers: call ``key(_:)``
/// before each member of an object; values of an array follow each other.
///
/// The bytes go into one buffer the writer owns, grown by doubling, with runs of plain text copied
/// at once: an array of bytes appended to piece by piece cost more than the rest of a save.
package struct JSONWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes written so far.
  private(set) var count = 0
  /// Whether each open container has no member yet, one bit per level (innermost lowest); the
  /// document shapes written nest a few levels deep, far from the 64 bits.
  private var empty: UInt64 = 0
  /// How many containers are open.
  private var depth = 0

  package init(capacity: Int = 1024) {
    self.capacity = max(64, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes written, in the writer's own buffer: handed over to the `Data`, not copied (a copy
  /// would cost a second allocation and a pass over the document on every save).
  consuming func finish() -> Data {
    let (base, count) = (base, count)
    discard self
    return Data(
      bytesNoCopy: base, count: count, deallocator: .custom { bytes, _ in bytes.deallocate() })
  }

  /// The bytes written, as a `String` (of valid UTF-8: the writer writes only what it is given
  /// as strings, and ASCII); the writer's buffer is freed.
  consuming func finishString() -> String {
    let text = String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    base.deallocate()
    discard self
    return text
  }

  package mutating func beginObject() { open(0x7B) }
  package mutating func endObject() { close(0x7D) }
  package mutating func beginArray() { open(0x5B) }
  package mutating func endArray() { close(0x5D) }

  /// A member's key (with the comma before it when needed); its value follows.
  package mutating func key(_ key: String) {
    string(key)
    reserve(1)
    base[count] = 0x3A
    count += 1
    // The value that follows must not get a comma of its own.
    if depth > 0 { empty |= 1 }
  }

  /// A member's key known when the code is written, with no character to escape (checked in
  /// debug builds): its bytes are copied as they are, with the quotes and the colon.
  package mutating func key(literal key: StaticString) {
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

  package mutating func integer(_ value: Int) {
    separate()
    digits(value)
  }

  /// A date as the string `YYYY-MM-DDTHH:MM:SSZ` (``ISO8601Seconds/format(_:)``'s text, 20
  /// bytes, written without building a `String`).
  package mutating func date(_ date: Date) {
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

  package mutating func string(_ value: String) {
    separate()
    quoted(value)
  }

  /// One byte as it is, with no separator and no bookkeeping of containers.
  package mutating func byte(_ value: UInt8) {
    reserve(1)
    base[count] = value
    count += 1
  }

  /// Bytes written before by another writer (a piece of JSON kept to be joined), as they are, with
  /// no separator and no bookkeeping of containers.
  package mutating func bytes(_ data: Data) {
    reserve(data.count)
    data.withUnsafeBytes { bytes in
      guard let source = bytes.baseAddress else { return }
      (base + count).update(
        from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }
    count += data.count
  }

  /// ASCII text as it is (a number's digits, a literal), with no separator and no bookkeeping of
  /// containers.
  package mutating func ascii(_ text: String) {
    for byte in text.utf8 { self.byte(byte) }
  }

  /// `value` as a JSON string, with no separator before it: the caller placed it (after a
  /// ``raw(_:)`` fragment that ends in a colon, say). `/` is escaped as `\/` with
  /// `escapingSlashes`.
  package mutating func quoted(_ value: String, escapingSlashes: Bool = false) {
    // A native string's bytes are read where they are; any other is made contiguous first.
    let written: Void? = value.utf8.withContiguousStorageIfAvailable {
      quoted(utf8: $0, escapingSlashes: escapingSlashes)
    }
    guard written == nil else { return }
    var value = value
    value.withUTF8 { quoted(utf8: $0, escapingSlashes: escapingSlashes) }
  }

  /// Writes `utf8` between quotes, escaped. Eight bytes are read and stored at once, escapes or
  /// not: the word lands whole at the output, and when one of its bytes needs an escape, the
  /// output moves on only to that byte, whose escape overwrites what followed it.
  private mutating func quoted(utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool) {
    let length = utf8.count
    // At most six bytes per byte (`\u00XX`), the quotes, and the slack of a whole word stored
    // where fewer bytes remain.
    reserve(length * 6 + 10)
    var out = base + count
    out.pointee = 0x22
    out += 1
    if let source = utf8.baseAddress {
      var index = 0
      while index < length {
        let remaining = length - index
        let word: UInt64
        let step: Int
        let flags: UInt64
        if remaining >= 8 {
          word = UInt64(
            littleEndian: UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self))
          step = 8
          flags = Self.escapedBytes(in: word, slashes: escapingSlashes)
        } else {
          // The last bytes, in a word whose unused high bytes are zero (flagged as control
          // characters, and masked off): the string's last eight bytes shifted down when it has
          // eight, else read one by one (never past the string's end).
          if length >= 8 {
            let last = UInt64(
              littleEndian: UnsafeRawPointer(source + length - 8).loadUnaligned(as: UInt64.self))
            word = last >> (UInt64(8 - remaining) &* 8)
          } else {
            var bytes: UInt64 = 0
            for offset in 0..<remaining {
              bytes |= UInt64(source[index + offset]) << (UInt64(offset) &* 8)
            }
            word = bytes
          }
          step = remaining
          flags =
            Self.escapedBytes(in: word, slashes: escapingSlashes)
            & ((1 << (UInt64(remaining) &* 8)) &- 1)
        }
        UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
        guard flags != 0 else {
          out += step
          index += step
          continue
        }
        // The lowest flagged byte is the first to escape (a false flag only ever follows a
        // true one).
        let offset = flags.trailingZeroBitCount >> 3
        let byte = source[index + offset]
        if byte == 0x22 || byte == 0x5C || byte == 0x2F {
          // The usual escape in a route's JSON: a backslash before the byte itself.
          out[offset] = 0x5C
          out[offset + 1] = byte
          out += offset + 2
        } else {
          out = Self.escape(byte, at: out + offset)
        }
        index += offset + 1
      }
    }
    out.pointee = 0x22
    count = out + 1 - base
  }

  /// Up to sixteen bytes of fixed JSON text (punctuation, and keys with nothing to escape), kept
  /// as two little-endian words so that writing it takes two stores.
  package struct Fragment: Sendable {
    package let low: UInt64
    package let high: UInt64
    package let count: Int

    /// Makes a fragment of `text`, which must be 16 bytes or fewer (checked in debug builds).
    package init(_ text: StaticString) {
      assert(text.hasPointerRepresentation && text.utf8CodeUnitCount <= 16)
      var low: UInt64 = 0
      var high: UInt64 = 0
      let count = min(16, text.utf8CodeUnitCount)
      for index in 0..<count {
        let byte = UInt64(text.utf8Start[index])
        if index < 8 {
          low |= byte << (UInt64(index) * 8)
        } else {
          high |= byte << (UInt64(index - 8) * 8)
        }
      }
      self.low = low
      self.high = high
      self.count = count
    }
  }

  /// Writes `fragment`'s bytes as they are, with no separator and no bookkeeping of containers:
  /// the caller keeps the text well formed (a whole object written by hand, say).
  @inline(__always)
  package mutating func raw(_ fragment: Fragment) {
    reserve(16)
    let out = UnsafeMutableRawPointer(base + count)
    out.storeBytes(of: fragment.low.littleEndian, as: UInt64.self)
    out.storeBytes(of: fragment.high.littleEndian, toByteOffset: 8, as: UInt64.self)
    count += fragment.count
  }

  /// Writes `fragment` as a value of the open container: the comma before it when one is needed,
  /// then its bytes (an object written by hand, for one, starts with such a fragment).
  @inline(__always)
  package mutating func rawValue(_ fragment: Fragment) {
    separate()
    raw(fragment)
  }

  /// An integer's digits (after a `-` for a negative one), with no separator: after a
  /// ``raw(_:)`` fragment that ends in a key.
  package mutating func digits(_ value: Int) {
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

  /// The high bit of each byte of `word` (first byte lowest) that must be escaped: below 0x20, `"`
  /// or `\`, and `/` with `slashes`. Bytes above a flagged one may be flagged wrongly (a borrow
  /// carries upwards); the lowest flag is always right.
  @inline(__always)
  private static func escapedBytes(in word: UInt64, slashes: Bool) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (0x22 &* ones)
    let backslash = word ^ (0x5C &* ones)
    let control = (word &- 0x20 &* ones) & ~word
    let isQuote = (quote &- ones) & ~quote
    let isBackslash = (backslash &- ones) & ~backslash
    var flags = control | isQuote | isBackslash
    if slashes {
      let slash = word ^ (0x2F &* ones)
      flags |= (slash &- ones) & ~slash
    }
    return flags & (0x80 &* ones)
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
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    grow(toHold: extra)
  }

  /// Moves the bytes to a buffer twice as large, or as large as `extra` more bytes need.
  private mutating func grow(toHold extra: Int) {
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
