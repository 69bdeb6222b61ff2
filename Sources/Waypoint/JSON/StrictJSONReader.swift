import Foundation

/// A fast reader of the JSON that Waypoint itself writes, for tools that read whole stores.
///
/// It reads a strict subset of JSON straight from the bytes: no byte order mark, no trailing
/// commas, strings of valid UTF-8 with standard escapes (no lone surrogates, no raw control
/// characters), numbers in plain form. Whenever the input goes beyond that subset, or anything is
/// unusual (a duplicate key, a number out of the plain form, a depth over the limit), it answers
/// `nil`, "not sure", and the caller takes the `JSONDecoder` path, which then gives exactly the
/// result and the error it always gave. So an answer of this reader is always one the
/// `JSONDecoder` path gives too, only sooner.
package struct StrictJSONReader {
  let bytes: UnsafeRawBufferPointer
  /// The offset of the next byte to read.
  package internal(set) var index = 0
  private let maxDepth: Int
  private var depth = 0
  /// Whether `bytes` are a JSON value as it is written inside a JSON string, its quotes written
  /// `\"` (for ``rawString()``; see ``init(escaped:maxDepth:)``).
  let quotesEscaped: Bool

  /// A reader of `bytes` (valid while it is used), refusing nesting deeper than `maxDepth`.
  package init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    quotesEscaped = false
  }

  /// A reader of the JSON value written inside a JSON string, read in its escaped form without
  /// unescaping it: `bytes` are the string's bytes between its quotes. Only the plainest form is
  /// read: its strings opened and closed by `\"`, with no other escape inside or around them (no
  /// `\\`, no `\n` as whitespace, no `\u`), which ``rawString()`` reads as ranges of the
  /// escaped bytes (the same bytes as unescaped), and ``skipValue()`` skips as such; anything else
  /// is unsure. So what it reads is what a reader of the unescaped value would read.
  package init(escaped bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    quotesEscaped = true
  }

  /// Not in the strict subset: the caller takes the slow path.
  package struct Unsure: Error {
    package init() {}
  }

  /// Whether every byte was read.
  package var atEnd: Bool { index >= bytes.count }

  /// Moves on to `offset`, past bytes the caller has read by other means (a value recognised on its
  /// own); never back, never past the end.
  package mutating func advance(to offset: Int) {
    index = min(max(index, offset), bytes.count)
  }

  @inline(__always)
  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  @inline(__always)
  package mutating func skipSpace() {
    // Most often nothing to skip: one test.
    if index < bytes.count, bytes[index] > 0x20 { return }
    while index < bytes.count {
      switch bytes[index] {
      case 0x20: index += 1
      case 0x09, 0x0A, 0x0D:
        // Inside a JSON string these are escaped: raw, the string is not valid.
        guard !quotesEscaped else { return }
        index += 1
      default: return
      }
    }
  }

  /// Consumes `byte` after optional whitespace.
  @inline(__always)
  package mutating func expect(_ byte: UInt8) throws(Unsure) {
    skipSpace()
    guard peek() == byte else { throw Unsure() }
    index += 1
  }

  /// Consumes `byte` after optional whitespace when it is next; says whether it was.
  @inline(__always)
  package mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  /// Whether the next value is `null` (consumed when it is).
  @inline(__always)
  package mutating func takeNull() -> Bool {
    skipSpace()
    guard index + 4 <= bytes.count, bytes[index] == 0x6E, bytes[index + 1] == 0x75,
      bytes[index + 2] == 0x6C, bytes[index + 3] == 0x6C
    else { return false }
    index += 4
    return true
  }

  /// Reads an object's members: `body` gets each key (compared as bytes: keys with escapes are
  /// unsure) and must consume its value. Duplicate keys are unsure.
  package mutating func object(_ body: (inout StrictJSONReader, String) throws(Unsure) -> Void)
    throws(Unsure)
  {
    try expect(UInt8(ascii: "{"))
    try enter()
    defer { depth -= 1 }
    var seen: [String] = []
    if take(UInt8(ascii: "}")) { return }
    repeat {
      let key = try string()
      guard !seen.contains(key) else { throw Unsure() }
      seen.append(key)
      try expect(UInt8(ascii: ":"))
      try body(&self, key)
    } while take(UInt8(ascii: ","))
    try expect(UInt8(ascii: "}"))
  }

  /// Reads an array: `body` must consume each element.
  package mutating func array(_ body: (inout StrictJSONReader) throws(Unsure) -> Void)
    throws(Unsure)
  {
    try expect(UInt8(ascii: "["))
    try enter()
    defer { depth -= 1 }
    if take(UInt8(ascii: "]")) { return }
    repeat {
      try body(&self)
    } while take(UInt8(ascii: ","))
    try expect(UInt8(ascii: "]"))
  }

  @inline(__always)
  mutating func enter() throws(Unsure) {
    depth += 1
    guard depth <= maxDepth else { throw Unsure() }
  }

  /// Leaves a level entered with ``enter()``.
  @inline(__always)
  mutating func leave() { depth -= 1 }

  /// An integer written plainly (`-?(0|[1-9][0-9]*)`, at most 18 digits), read in 64 bits as
  /// ``integer64()`` reads it; one that an `Int` cannot hold (a 32-bit `Int`, on watchOS) is
  /// unsure, never a trap.
  package mutating func integer() throws(Unsure) -> Int {
    guard let value = Int(exactly: try integer64()) else { throw Unsure() }
    return value
  }

  /// A number in plain form (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]{1,2})?`, at most 17
  /// significant digits), which every reading of numbers accepts.
  package mutating func number() throws(Unsure) {
    skipSpace()
    if peek() == UInt8(ascii: "-") { index += 1 }
    var digits = try digitRun()
    guard digits == 1 || bytes[index - digits] != 0x30 else { throw Unsure() }
    if peek() == UInt8(ascii: ".") {
      index += 1
      digits += try digitRun()
    }
    guard digits <= 17 else { throw Unsure() }
    if let byte = peek(), byte | 0x20 == UInt8(ascii: "e") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard try digitRun() <= 2 else { throw Unsure() }
    }
  }

  private mutating func digitRun() throws(Unsure) -> Int {
    let start = index
    while let byte = peek(), byte >= 0x30, byte <= 0x39 { index += 1 }
    guard index > start else { throw Unsure() }
    return index - start
  }

  /// A string, unescaped.
  package mutating func string() throws(Unsure) -> String {
    skipSpace()
    guard peek() == UInt8(ascii: "\"") else { throw Unsure() }
    index += 1
    let start = index
    // The text unescaped so far, up to `run`; empty while nothing needed unescaping.
    var text: [UInt8] = []
    var run = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      let plain = UnsafeRawBufferPointer(rebasing: bytes[run..<index])
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        if run == start { return String(decoding: plain, as: UTF8.self) }
        text.append(contentsOf: plain)
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        text.append(contentsOf: plain)
        index += 1
        try escape(into: &text)
      case 0..<0x20:
        throw Unsure()
      default:
        // Valid UTF-8 is kept as it is, in the run.
        index += try utf8Sequence()
        continue
      }
      run = index
    }
    throw Unsure()
  }

  /// Skips a string, checking it as ``string()`` does, without making it.
  private mutating func skipString() throws(Unsure) {
    if quotesEscaped {
      _ = try rawString()
      return
    }
    guard peek() == UInt8(ascii: "\"") else { throw Unsure() }
    index += 1
    var scratch: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return
      case UInt8(ascii: "\\"):
        index += 1
        scratch.removeAll(keepingCapacity: true)
        try escape(into: &scratch)
      case 0..<0x20:
        throw Unsure()
      default:
        index += try utf8Sequence()
      }
    }
    throw Unsure()
  }

  mutating func escape(into text: inout [UInt8]) throws(Unsure) {
    guard let byte = peek() else { throw Unsure() }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
    case UInt8(ascii: "b"): text.append(0x08)
    case UInt8(ascii: "f"): text.append(0x0C)
    case UInt8(ascii: "n"): text.append(0x0A)
    case UInt8(ascii: "r"): text.append(0x0D)
    case UInt8(ascii: "t"): text.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hex4()
      if scalar >= 0xD800, scalar < 0xDC00 {
        // A high surrogate must be followed by an escaped low one.
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw Unsure() }
        index += 2
        let low = try hex4()
        guard low >= 0xDC00, low < 0xE000 else { throw Unsure() }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if scalar >= 0xDC00, scalar < 0xE000 {
        throw Unsure()
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw Unsure() }
      text.append(contentsOf: Array(String(Character(unicode)).utf8))
    default:
      throw Unsure()
    }
  }

  private mutating func hex4() throws(Unsure) -> UInt32 {
    guard index + 4 <= bytes.count else { throw Unsure() }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw Unsure()
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// The length of the valid UTF-8 sequence of two to four bytes at `index` (`UTF8Sequence`).
  func utf8Sequence() throws(Unsure) -> Int {
    guard let length = UTF8Sequence.length(in: bytes, at: index) else { throw Unsure() }
    return length
  }

  /// Skips any value, checking it is in the strict subset. Keys of the objects inside are not
  /// compared: a duplicate key within a value nobody reads is what `JSONDecoder` ignores too.
  package mutating func skipValue() throws(Unsure) {
    skipSpace()
    switch peek() {
    case UInt8(ascii: "{"):
      index += 1
      try enter()
      defer { depth -= 1 }
      if take(UInt8(ascii: "}")) { return }
      repeat {
        skipSpace()
        try skipString()
        try expect(UInt8(ascii: ":"))
        try skipValue()
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      try array { reader throws(Unsure) in try reader.skipValue() }
    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
      // A backslash opens a string only in an escaped value (see `init(escaped:maxDepth:)`).
      try skipString()
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default: try number()
    }
  }

  mutating func literal(_ word: StaticString) throws(Unsure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw Unsure() }
    let start = word.utf8Start
    for offset in 0..<count where bytes[index + offset] != start[offset] { throw Unsure() }
    index += count
  }

  /// Whether `data` is one JSON object in the strict subset, nested at most `maxDepth` deep, with
  /// nothing but whitespace after it.
  package static func isObject(_ data: Data, maxDepth: Int) -> Bool {
    data.withUnsafeBytes { bytes in
      var reader = StrictJSONReader(bytes, maxDepth: maxDepth)
      do throws(Unsure) {
        reader.skipSpace()
        guard reader.peek() == UInt8(ascii: "{") else { return false }
        try reader.skipValue()
        reader.skipSpace()
        return reader.atEnd
      } catch {
        return false
      }
    }
  }
}
