import Foundation

/// A snapshot document recognised on its bytes as exactly what ``SceneSnapshot/encoded()`` writes,
/// for tools that move whole stores (`waypoint export` and `import`): such a document is the
/// stored document as it is, and reading it gives a snapshot that encodes back to the same bytes,
/// so it need not be decoded and encoded again.
///
/// The recognition is strict: the keys in the format's sorted order, no whitespace, integers and
/// strings written as ``SceneSnapshot/encoded()`` writes them (its escapes only, valid UTF-8), a
/// format version equal to ``SceneSnapshot/currentFormatVersion``, a save time in the seconds form,
/// versions at least 1 and a route version only when it is not 1, stack names in increasing order.
/// Anything else is "not sure" (`nil`), and the caller reads the document as it always did.
package struct CanonicalDocument {
  /// Where the document ends: the offset after its closing brace.
  package var end: Int
  /// The save time.
  package var savedAt: Date
  /// The route schema version.
  package var routeSchemaVersion: Int
  /// The bytes of the app build string, between its quotes (escaped as written), if there is one.
  package var appBuild: Range<Int>?
  /// The bytes of every route's `json` string, between its quotes (escaped as written), in the
  /// order of the document.
  package var payloads: [Range<Int>]

  fileprivate init(
    end: Int, savedAt: Date, routeSchemaVersion: Int, appBuild: Range<Int>?, payloads: [Range<Int>]
  ) {
    self.end = end
    self.savedAt = savedAt
    self.routeSchemaVersion = routeSchemaVersion
    self.appBuild = appBuild
    self.payloads = payloads
  }

  /// Recognises the document that starts at `start` in `bytes`; `nil` when it is not exactly one
  /// that ``SceneSnapshot/encoded()`` writes, is over `limits.maxDocumentBytes`, or would not be read
  /// within `limits`.
  package init?(_ bytes: UnsafeRawBufferPointer, at start: Int, limits: InputLimits) {
    // The document nests four deep (document, stacks, a stack, a route).
    guard limits.maxNestingDepth >= 4 else { return nil }
    var scanner = Scanner(bytes: bytes, index: start)
    do throws(Scanner.NotCanonical) {
      self = try scanner.document()
    } catch {
      return nil
    }
    guard end - start <= limits.maxDocumentBytes else { return nil }
  }

  /// The text of a string recognised in a canonical document (`range` between its quotes), its
  /// escapes undone.
  package static func string(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
    guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
    var text: [UInt8] = []
    unescape(raw, into: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Undoes the escapes of a canonical string's contents (`\b \f \n \r \t`, `\"`, `\\` and
  /// `\u00xx`, the only ones ``SceneSnapshot/encoded()`` writes) into `unescaped`, which is emptied
  /// first: a caller unescaping many strings reuses one buffer.
  package static func unescape(_ escaped: UnsafeRawBufferPointer, into unescaped: inout [UInt8]) {
    unescaped.removeAll(keepingCapacity: true)
    unescaped.reserveCapacity(escaped.count)
    var index = 0
    var run = 0
    while index < escaped.count {
      guard escaped[index] == UInt8(ascii: "\\"), index + 1 < escaped.count else {
        index += 1
        continue
      }
      unescaped.appendBytes(UnsafeRawBufferPointer(rebasing: escaped[run..<index]))
      let escape = escaped[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "b"): unescaped.append(0x08)
      case UInt8(ascii: "f"): unescaped.append(0x0C)
      case UInt8(ascii: "n"): unescaped.append(0x0A)
      case UInt8(ascii: "r"): unescaped.append(0x0D)
      case UInt8(ascii: "t"): unescaped.append(0x09)
      case UInt8(ascii: "u") where index + 4 <= escaped.count:
        func hex(_ byte: UInt8) -> UInt8 { byte <= 0x39 ? byte &- 0x30 : byte &- 0x57 }
        unescaped.append(hex(escaped[index + 2]) << 4 | hex(escaped[index + 3]))
        index += 4
      default: unescaped.append(escape)
      }
      run = index
    }
    unescaped.appendBytes(UnsafeRawBufferPointer(rebasing: escaped[run..<escaped.count]))
  }
}

/// Reads a canonical document, throwing at the first byte that is not where
/// ``SceneSnapshot/encoded()`` would have written it.
private struct Scanner {
  struct NotCanonical: Error {}

  let bytes: UnsafeRawBufferPointer
  var index: Int

  mutating func document() throws(NotCanonical) -> CanonicalDocument {
    var payloads: [Range<Int>] = []
    payloads.reserveCapacity(16)
    try byte(UInt8(ascii: "{"))
    var appBuild: Range<Int>?
    if try key("appBuild", first: true) {
      appBuild = try string()
      try comma()
    }
    guard try key("format", first: true) else { throw NotCanonical() }
    guard try integer() == SceneSnapshot.currentFormatVersion else { throw NotCanonical() }
    try comma()
    guard try key("routeSchemaVersion", first: true) else { throw NotCanonical() }
    let routeSchemaVersion = try integer()
    guard routeSchemaVersion >= 1 else { throw NotCanonical() }
    try comma()
    guard try key("savedAt", first: true) else { throw NotCanonical() }
    let savedAt = try date()
    try comma()
    if try key("selectedTab", first: true) {
      try route(&payloads)
      try comma()
    }
    if try key("sheet", first: true) {
      try route(&payloads)
      try comma()
    }
    if try key("split", first: true) {
      try split(&payloads)
      try comma()
    }
    guard try key("stacks", first: true) else { throw NotCanonical() }
    try stacks(&payloads)
    try byte(UInt8(ascii: "}"))
    return CanonicalDocument(
      end: index, savedAt: savedAt, routeSchemaVersion: routeSchemaVersion, appBuild: appBuild,
      payloads: payloads)
  }

  /// `{"columnVisibility":…[,"content":…][,"preferredCompactColumn":…][,"sidebar":…]}`
  private mutating func split(_ payloads: inout [Range<Int>]) throws(NotCanonical) {
    try byte(UInt8(ascii: "{"))
    guard try key("columnVisibility", first: true) else { throw NotCanonical() }
    _ = try string()
    if try key("content", first: false) { try route(&payloads) }
    if try key("preferredCompactColumn", first: false) { _ = try string() }
    if try key("sidebar", first: false) { try route(&payloads) }
    try byte(UInt8(ascii: "}"))
  }

  /// `{"NAME":[ROUTE,…],…}` with the names in increasing order of their UTF-8 bytes (the writer's
  /// order, JSONEncoder's `.sortedKeys`), no two of them one name for `String` (a dictionary
  /// would keep one stack of the two).
  private mutating func stacks(_ payloads: inout [Range<Int>]) throws(NotCanonical) {
    try byte(UInt8(ascii: "{"))
    if peek() == UInt8(ascii: "}") {
      index += 1
      return
    }
    var names: [Range<Int>] = []
    // Plain names (ASCII, no escape) are equal for `String` only when their bytes are, which the
    // increasing order excludes; any other can equal another name with different bytes ("é" in
    // NFC and NFD, "K" and the Kelvin sign): once one appears, every name is checked by `String`.
    var distinct: Set<String>?
    repeat {
      let name = try string()
      if let previous = names.last { try increasing(previous, name) }
      if distinct == nil, !plain(name) {
        // The names before it are plain, distinct by their increasing bytes.
        distinct = Set(names.map { CanonicalDocument.string(bytes, $0) })
      }
      names.append(name)
      if distinct != nil {
        guard distinct?.insert(CanonicalDocument.string(bytes, name)).inserted == true else {
          throw NotCanonical()
        }
      }
      try byte(UInt8(ascii: ":"))
      try byte(UInt8(ascii: "["))
      if peek() == UInt8(ascii: "]") {
        index += 1
      } else {
        repeat {
          try route(&payloads)
        } while take(UInt8(ascii: ","))
        try byte(UInt8(ascii: "]"))
      }
    } while take(UInt8(ascii: ","))
    try byte(UInt8(ascii: "}"))
  }

  /// Whether a string's bytes (between its quotes) are ASCII without an escape: its text as it is.
  private func plain(_ range: Range<Int>) -> Bool {
    !UnsafeRawBufferPointer(rebasing: bytes[range]).contains {
      $0 >= 0x80 || $0 == UInt8(ascii: "\\")
    }
  }

  /// Stack names are written in the order of their UTF-8 bytes: the second must come after the
  /// first. Plain names are compared as they stand; others as their text (escapes read).
  private func increasing(_ first: Range<Int>, _ second: Range<Int>) throws(NotCanonical) {
    if plain(first), plain(second) {
      let a = UnsafeRawBufferPointer(rebasing: bytes[first])
      let b = UnsafeRawBufferPointer(rebasing: bytes[second])
      guard a.lexicographicallyPrecedes(b) else { throw NotCanonical() }
    } else {
      let a = CanonicalDocument.string(bytes, first)
      let b = CanonicalDocument.string(bytes, second)
      guard SceneSnapshot.precedes(a, b) else { throw NotCanonical() }
    }
  }

  /// `{"json":…,"tag":…[,"version":N]}` with N ≥ 2.
  private mutating func route(_ payloads: inout [Range<Int>]) throws(NotCanonical) {
    try byte(UInt8(ascii: "{"))
    guard try key("json", first: true) else { throw NotCanonical() }
    payloads.append(try string())
    guard try key("tag", first: false) else { throw NotCanonical() }
    _ = try string()
    if try key("version", first: false) {
      guard try integer() >= 2 else { throw NotCanonical() }
    }
    try byte(UInt8(ascii: "}"))
  }

  /// Whether the key `name` comes next (preceded by a comma unless `first`), consumed with its
  /// colon when it does.
  @inline(__always)
  private mutating func key(_ name: StaticString, first: Bool) throws(NotCanonical) -> Bool {
    let start = first ? index : index + 1
    let count = name.utf8CodeUnitCount
    guard start + count + 3 <= bytes.count else { return false }
    if !first, bytes[index] != UInt8(ascii: ",") { return false }
    guard bytes[start] == UInt8(ascii: "\"") else { return false }
    let text = name.utf8Start
    for offset in 0..<count where bytes[start + 1 + offset] != text[offset] { return false }
    guard bytes[start + 1 + count] == UInt8(ascii: "\""),
      bytes[start + 2 + count] == UInt8(ascii: ":")
    else { return false }
    index = start + count + 3
    return true
  }

  @inline(__always)
  private mutating func comma() throws(NotCanonical) { try byte(UInt8(ascii: ",")) }

  @inline(__always)
  private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  @inline(__always)
  private mutating func take(_ expected: UInt8) -> Bool {
    guard peek() == expected else { return false }
    index += 1
    return true
  }

  @inline(__always)
  private mutating func byte(_ expected: UInt8) throws(NotCanonical) {
    guard take(expected) else { throw NotCanonical() }
  }

  /// A non-negative integer as `JSONWriter` writes it: `0` or no leading zero, at most 18 digits.
  private mutating func integer() throws(NotCanonical) -> Int {
    let start = index
    // Counted in 64 bits (18 digits fit), then taken as an `Int` only when it is one: a 32-bit
    // `Int` (watchOS) must not trap on a stored number.
    var value: Int64 = 0
    while let digit = peek(), digit >= 0x30, digit <= 0x39 {
      guard index - start < 18 else { throw NotCanonical() }
      value = value * 10 + Int64(digit - 0x30)
      index += 1
    }
    guard index > start, index - start == 1 || bytes[start] != 0x30,
      let integer = Int(exactly: value)
    else { throw NotCanonical() }
    return integer
  }

  /// `"YYYY-MM-DDTHH:MM:SSZ"`, a real date written back the same.
  private mutating func date() throws(NotCanonical) -> Date {
    let range = try string()
    guard range.count == 20 else { throw NotCanonical() }
    // Read on the bytes: the date must be one format(_:) writes back byte for byte.
    guard
      let date = ISO8601Seconds.parse(secondsForm: UnsafeRawBufferPointer(rebasing: bytes[range]))
    else { throw NotCanonical() }
    return date
  }

  /// A string as `JSONWriter` writes it: valid UTF-8, `"` and `\` escaped, `\b \f \n \r \t` by
  /// name, other control characters as `\u00xx` (lowercase), nothing else escaped.
  ///
  /// - Returns: the bytes between the quotes.
  private mutating func string() throws(NotCanonical) -> Range<Int> {
    try byte(UInt8(ascii: "\""))
    let start = index
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      throw NotCanonical()
    }
    let end = bytes.count
    var at = index
    while at < end {
      let byte = base[at]
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        at += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        index = at + 1
        return start..<at
      case UInt8(ascii: "\\"):
        guard at + 1 < end else { throw NotCanonical() }
        switch base[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          at += 2
        default:
          index = at
          try escape()
          at = index
        }
      case 0..<0x20:
        throw NotCanonical()
      default:
        index = at
        at += try utf8Sequence()
      }
    }
    throw NotCanonical()
  }

  private mutating func escape() throws(NotCanonical) {
    guard index + 1 < bytes.count else { throw NotCanonical() }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      index += 2
    case UInt8(ascii: "u"):
      // Only a control character without a name, in lowercase hexadecimal.
      guard index + 6 <= bytes.count, bytes[index + 2] == 0x30, bytes[index + 3] == 0x30 else {
        throw NotCanonical()
      }
      let high = bytes[index + 4]
      let low = bytes[index + 5]
      guard high == 0x30 || high == 0x31 else { throw NotCanonical() }
      let lowValue: UInt8
      switch low {
      case 0x30...0x39: lowValue = low - 0x30
      case 0x61...0x66: lowValue = low - 0x57
      default: throw NotCanonical()
      }
      let value = (high - 0x30) << 4 | lowValue
      guard ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(value) else { throw NotCanonical() }
      index += 6
    default:
      throw NotCanonical()
    }
  }

  /// The length of the valid UTF-8 sequence of two to four bytes at `index` (`UTF8Sequence`).
  private func utf8Sequence() throws(NotCanonical) -> Int {
    guard let length = UTF8Sequence.length(in: bytes, at: index) else { throw NotCanonical() }
    return length
  }
}
