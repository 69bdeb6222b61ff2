import Foundation

/// A JSON text's structure as `JSONDecoder` scans it before any type reads it: every value's kind
/// and place in the text, in document order, numbers and strings kept as written.
///
/// Made by ``JSONNodeScanner`` in one pass over the text, in one array: reading a snapshot
/// document, matching a route payload against its shape or redacting it walks this structure
/// instead of a tree of nodes. A string is read as `JSONDecoder` reads it only when it is asked for
/// (``string(_:)``), a number likewise (``plainInteger(_:)``, ``read(_:as:)``), so that
/// `{"home":{},"zz":1e400}` is a valid `home` and a member nobody reads costs nothing.
package struct JSONStructure: Sendable {
  /// A value of the text.
  package struct Value: Hashable, Sendable {
    fileprivate let entry: Int
  }

  /// What kind of JSON value a ``Value`` is.
  package enum Kind: UInt8, Sendable {
    case null, bool, number, string, array, object
  }

  /// One value as the scanner recorded it.
  package struct Entry: Sendable {
    /// A string holding a backslash or a control character: read the slow way.
    package static let escaped: UInt8 = 1
    /// A string holding bytes outside ASCII: its UTF-8 is checked when it is read.
    package static let nonASCII: UInt8 = 2

    package var kind: Kind
    /// For strings, ``escaped`` and ``nonASCII``; for a bool, 1 when it is `true`.
    package var flags: UInt8
    /// Strings: the first byte after the opening quote; other values: their first byte.
    package var start: Int
    /// Strings: the closing quote; other values: the byte after their last.
    package var end: Int
    /// The entry after this value and everything in it.
    package var next: Int
    /// The elements of an array, the members of an object; 0 otherwise.
    package var count: Int
  }

  /// The text as UTF-8, without a byte order mark.
  package let bytes: [UInt8]
  /// The length of the byte order mark the text began with, to name places in the text as given.
  package let markLength: Int
  private let entries: [Entry]

  /// The top-level value.
  package var root: Value { Value(entry: 0) }

  /// The structure of `text`, after checking it against the size limit `byteLimit` and the nesting
  /// limit `maxDepth`.
  ///
  /// - Throws: ``SnapshotFormatError``: ``SnapshotFormatError/Code/tooLarge`` over `byteLimit`
  ///   (before anything is read), ``SnapshotFormatError/Code/nestingTooDeep`` when arrays and
  ///   objects nest deeper than `maxDepth` before the text stops being JSON, and
  ///   ``SnapshotFormatError/Code/malformedJSON`` naming the place where it does.
  package init(scanning text: some Collection<UInt8>, byteLimit: Int, maxDepth: Int)
    throws(SnapshotFormatError)
  {
    guard text.count <= byteLimit else {
      throw .tooLarge(byteCount: text.count, limit: byteLimit)
    }
    try self.init(scanning: Self.contiguous(text), maxDepth: maxDepth)
  }

  /// The structure of `bytes` with no size limit, nested at most `maxDepth` deep.
  package init(scanning bytes: [UInt8], maxDepth: Int) throws(SnapshotFormatError) {
    switch Self.scan(bytes, maxDepth: maxDepth, recording: true) {
    case .success(let structure): self = structure
    case .failure(let failure): throw failure.error(maxDepth: maxDepth)
    }
  }

  /// Checks `text` as ``init(scanning:byteLimit:maxDepth:)`` does, recording nothing.
  package static func check(_ text: some Collection<UInt8>, byteLimit: Int, maxDepth: Int)
    throws(SnapshotFormatError)
  {
    guard text.count <= byteLimit else {
      throw .tooLarge(byteCount: text.count, limit: byteLimit)
    }
    let scanned = withContiguousBytes(text) { bytes in
      scan(bytes, maxDepth: maxDepth, recording: false)
    }
    if case .failure(let failure) = scanned { throw failure.error(maxDepth: maxDepth) }
  }

  /// Where `text` stops being JSON as `JSONDecoder` scans it, or else its first string or number
  /// that `JSONDecoder` would refuse to read (``firstUnreadableValue()``); `nil` when it reads all
  /// of it. For messages about a text a decoder refused.
  package static func firstProblem(in text: some Collection<UInt8>) -> JSONProblem? {
    switch scan(contiguous(text), maxDepth: .max, recording: true) {
    case .success(let structure): return structure.firstUnreadableValue()
    case .failure(.malformed(let problem)): return problem
    case .failure(.unconvertible): return JSONProblem(Self.unconvertibleText, at: 0, in: [])
    // No depth limit is reached but JSONDecoder's own, a malformed text.
    case .failure(.tooDeep): return nil
    }
  }

  /// Why a text has no structure.
  private enum ScanFailure: Error {
    case unconvertible
    case tooDeep
    case malformed(JSONProblem)

    package func error(maxDepth: Int) -> SnapshotFormatError {
      switch self {
      case .unconvertible: .malformedJSON(JSONStructure.unconvertibleText)
      case .tooDeep: .nestingTooDeep(limit: maxDepth)
      case .malformed(let problem): .malformedJSON(problem.description)
      }
    }
  }

  private static let unconvertibleText =
    "the data is neither UTF-8 nor the UTF-16 or UTF-32 its first bytes announce"

  private init(bytes: [UInt8], markLength: Int, entries: [Entry]) {
    self.bytes = bytes
    self.markLength = markLength
    self.entries = entries
  }

  /// Scans `bytes` as given (any encoding `JSONDecoder` detects), recording its structure or
  /// only checking it.
  private static func scan(_ bytes: [UInt8], maxDepth: Int, recording: Bool) -> Result<
    JSONStructure, ScanFailure
  > {
    bytes.withUnsafeBufferPointer {
      scan($0, maxDepth: maxDepth, recording: recording, copy: bytes)
    }
  }

  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, recording: Bool)
    -> Result<JSONStructure, ScanFailure>
  {
    scan(bytes, maxDepth: maxDepth, recording: recording, copy: nil)
  }

  /// Scans `bytes`; `copy` is the same bytes in an array, when the caller has one.
  private static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, recording: Bool, copy: [UInt8]?
  ) -> Result<JSONStructure, ScanFailure> {
    guard let converted = JSONNodeScanner.utf8Representation(of: bytes) else {
      return .failure(.unconvertible)
    }
    func scanUTF8(_ utf8: UnsafeBufferPointer<UInt8>, _ array: () -> [UInt8]) -> Result<
      JSONStructure, ScanFailure
    > {
      var scanner = JSONNodeScanner(utf8, depthLimit: maxDepth, recording: recording)
      do throws(JSONNodeScanner.Stop) {
        try scanner.document()
      } catch {
        switch error {
        case .tooDeep: return .failure(.tooDeep)
        case .malformed(let offset, let message):
          return .failure(
            .malformed(JSONProblem(message, at: offset, in: array(), markLength: converted.bom)))
        }
      }
      guard recording else { return .success(JSONStructure(bytes: [], markLength: 0, entries: [])) }
      return .success(
        JSONStructure(bytes: array(), markLength: converted.bom, entries: scanner.entries))
    }
    if let utf8 = converted.utf8 {
      return utf8.withUnsafeBufferPointer { scanUTF8($0, { utf8 }) }
    }
    let body = UnsafeBufferPointer(rebasing: bytes[converted.bom...])
    return scanUTF8(body, { converted.bom == 0 ? copy ?? Array(body) : Array(body) })
  }

  /// The bytes of `text` in an array (a copy, in one move where they are contiguous: a `Data`, a
  /// native string's UTF-8, a buffer).
  private static func contiguous(_ text: some Collection<UInt8>) -> [UInt8] {
    text.withContiguousStorageIfAvailable { Array($0) } ?? Array(text)
  }

  /// Calls `body` with the bytes of `text` in contiguous memory, copied only when they are not.
  private static func withContiguousBytes<T>(
    _ text: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T {
    text.withContiguousStorageIfAvailable(body) ?? Array(text).withUnsafeBufferPointer(body)
  }

  // MARK: Values

  /// The kind of `value`.
  package func kind(_ value: Value) -> Kind { entries[value.entry].kind }

  /// The value of a bool, `nil` for any other kind.
  package func bool(_ value: Value) -> Bool? {
    let entry = entries[value.entry]
    return entry.kind == .bool ? entry.flags == 1 : nil
  }

  /// The values of an array, in order; none for any other kind.
  package func elements(of array: Value) -> Children {
    Children(entries: entries, of: array.entry, step: 1)
  }

  /// The members of an object, in order, each as its key (a string) and its value: for every
  /// member, the key's ``Value`` is the one before its value's. None for any other kind.
  package func members(of object: Value) -> Members {
    Members(children: Children(entries: entries, of: object.entry, step: 2))
  }

  /// How many elements an array or members an object has; 0 for any other kind.
  package func count(_ value: Value) -> Int { entries[value.entry].count }

  /// The values of an array, or the keys of an object's members, in order.
  package struct Children: Sequence, IteratorProtocol {
    fileprivate let entries: [Entry]
    private var following: Int
    private var left: Int

    fileprivate init(entries: [Entry], of container: Int, step: Int) {
      self.entries = entries
      let entry = entries[container]
      let isContainer = entry.kind == .array || entry.kind == .object
      following = container + 1
      left = isContainer ? entry.count * step : 0
    }

    package mutating func next() -> Value? {
      guard left > 0 else { return nil }
      let value = Value(entry: following)
      following = entries[following].next
      left -= 1
      return value
    }
  }

  /// The members of an object, each as its key and its value.
  package struct Members: Sequence, IteratorProtocol {
    fileprivate var children: Children

    package mutating func next() -> (key: Value, value: Value)? {
      guard let key = children.next(), let value = children.next() else { return nil }
      return (key, value)
    }
  }

  /// The text of `value` as written: a number's digits, a string with its quotes, an array or an
  /// object whole.
  package func text(_ value: Value) -> Substring {
    let entry = entries[value.entry]
    let range =
      entry.kind == .string ? (entry.start - 1)..<(entry.end + 1) : entry.start..<entry.end
    return Substring(decoding: bytes[range], as: UTF8.self)
  }

  /// Where `value` lies in ``bytes``: a string's contents between its quotes, any other value
  /// whole.
  package func range(_ value: Value) -> Range<Int> {
    let entry = entries[value.entry]
    return entry.start..<entry.end
  }

  /// The place of `value` for messages: `at line 1, column 5 (byte 4)`, in the text as given.
  package func problem(_ message: String, at value: Value) -> JSONProblem {
    let entry = entries[value.entry]
    return problem(message, atOffset: entry.kind == .string ? entry.start - 1 : entry.start)
  }

  /// A problem at an offset in ``bytes``.
  package func problem(_ message: String, atOffset offset: Int) -> JSONProblem {
    JSONProblem(message, at: offset, in: bytes, markLength: markLength)
  }

  // MARK: Strings

  /// The string as `JSONDecoder` reads it.
  ///
  /// - Throws: ``JSONProblem`` naming the place where it stops being a string `JSONDecoder` reads:
  ///   an invalid escape, a lone surrogate, a control character, invalid UTF-8; or that `value` is
  ///   not a string.
  package func string(_ value: Value) throws(JSONProblem) -> String {
    let entry = entries[value.entry]
    guard entry.kind == .string else { throw problem("expected a string", at: value) }
    return try bytes.withUnsafeBufferPointer { bytes throws(JSONProblem) in
      let contents = UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.end])
      if entry.flags & Entry.escaped == 0 {
        if entry.flags & Entry.nonASCII != 0, let bad = JSONString.firstInvalidUTF8(in: contents) {
          throw problem(
            "invalid UTF-8 in a string, \(JSONProblem.found(at: entry.start + bad, in: bytes))",
            atOffset: entry.start + bad)
        }
        return String(decoding: contents, as: UTF8.self)
      }
      do throws(JSONString.Failure) {
        return try JSONString.unescape(contents, ascii: entry.flags & Entry.nonASCII == 0)
      } catch {
        throw problem(
          error.message(in: bytes, base: entry.start), atOffset: entry.start + error.offset)
      }
    }
  }

  /// Whether `value` is a string that `JSONDecoder` reads (``string(_:)``), found without making
  /// a `String` of plain ASCII.
  package func stringReads(_ value: Value) -> Bool {
    let entry = entries[value.entry]
    guard entry.kind == .string else { return false }
    if entry.flags == 0 { return true }
    return bytes.withUnsafeBufferPointer { bytes in
      let contents = UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.end])
      guard entry.flags & Entry.escaped != 0 else {
        return JSONString.firstInvalidUTF8(in: contents) == nil
      }
      return JSONString.check(contents, ascii: entry.flags & Entry.nonASCII == 0) == nil
    }
  }

  /// Whether the string `value` reads as `name`; a string written as plain ASCII is compared
  /// byte for byte, without being read into a `String`.
  ///
  /// - Throws: ``JSONProblem`` where the string does not read (see ``string(_:)``).
  package func string(_ value: Value, is name: StaticString) throws(JSONProblem) -> Bool {
    let plain = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    if let equal = plainString(value, equals: plain) { return equal }
    return try string(value) == name.description
  }

  /// Whether the string `value` reads as `name`, compared as ``string(_:is:)-(_,StaticString)``
  /// compares.
  package func string(_ value: Value, is name: String) throws(JSONProblem) -> Bool {
    var name = name
    if let equal = name.withUTF8({ plainString(value, equals: $0) }) { return equal }
    return try string(value) == name
  }

  /// The place in `names` of the first that the string `value` reads as; `nil` for none.
  ///
  /// - Throws: ``JSONProblem`` where the string does not read (see ``string(_:)``).
  package func string(_ value: Value, among names: [StaticString]) throws(JSONProblem) -> Int? {
    if isPlainString(value) {
      return names.firstIndex { name in
        plainString(
          value,
          equals: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
          == true
      }
    }
    let text = try string(value)
    return names.firstIndex { text == $0.description }
  }

  /// Whether `value` is a string of ASCII without escapes or control characters as written: it
  /// reads as its bytes, and another such text is equal to it only byte for byte.
  private func isPlainString(_ value: Value) -> Bool {
    let entry = entries[value.entry]
    return entry.kind == .string && entry.flags == 0
  }

  /// Whether the plain string `value` (``isPlainString(_:)``) has the bytes `name`, when `name` is
  /// ASCII; `nil` when either is not plain, for the caller to compare the strings as read.
  private func plainString(_ value: Value, equals name: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard isPlainString(value) else { return nil }
    let entry = entries[value.entry]
    let same =
      entry.end - entry.start == name.count
      && bytes.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress, let other = name.baseAddress else { return true }
        return memcmp(base + entry.start, other, name.count) == 0
      }
    // Other bytes than a name outside ASCII may still be the same text (canonically equivalent).
    return same || name.allSatisfy { $0 < 0x80 } ? same : nil
  }

  // MARK: Numbers

  /// A number written as a plain integer of at most 18 digits (`-?(0|[1-9][0-9]*)`), which every
  /// reader of JSON takes for the same value; `nil` for anything else.
  package func plainInteger(_ value: Value) -> Int64? {
    let entry = entries[value.entry]
    guard entry.kind == .number else { return nil }
    return bytes.withUnsafeBufferPointer { bytes -> Int64? in
      var index = entry.start
      let negative = bytes[index] == UInt8(ascii: "-")
      if negative { index += 1 }
      let digits = entry.end - index
      guard digits >= 1, digits <= 18, digits == 1 || bytes[index] != UInt8(ascii: "0") else {
        return nil
      }
      var result: Int64 = 0
      while index < entry.end {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        result = result * 10 + Int64(digit)
        index += 1
      }
      return negative ? -result : result
    }
  }

  /// The number or string `value` read as `T` by `JSONDecoder` itself; `nil` when it refuses it.
  /// The rules for numbers are `JSONDecoder`'s own (`1.0` and `1e2` are integers, a `Float` is read
  /// from the text): this asks it, for anything but ``plainInteger(_:)``'s integers.
  package func read<T: Decodable>(_ value: Value, as type: T.Type) -> T? {
    let entry = entries[value.entry]
    guard entry.kind == .number || entry.kind == .string else { return nil }
    // Inside an array, as in the payload: a lone value would go through JSONDecoder's encoding
    // detection, which reads `"\u{0}a\u{0}"` as UTF-16.
    var wrapped = Data("[".utf8)
    wrapped.append(contentsOf: text(value).utf8)
    wrapped.append(UInt8(ascii: "]"))
    return (try? JSONDecoder().decode([T].self, from: wrapped))?.first
  }

  // MARK: Everything read

  /// The first string (a key included) or number of the text that `JSONDecoder` would refuse to
  /// read, in document order: a string as ``string(_:)`` reads it, a number as `JSONValue` reads
  /// it. `nil` when every one reads, which is when `JSONValue` reads the whole text.
  package func firstUnreadableValue() -> JSONProblem? {
    for (index, entry) in entries.enumerated() {
      let value = Value(entry: index)
      switch entry.kind {
      case .string:
        guard !stringReads(value) else { continue }
        do throws(JSONProblem) {
          _ = try string(value)
        } catch {
          return error
        }
      case .number:
        // As `JSONValue` reads a number: as an Int64, a UInt64 or a Double (`0e3` reads as an
        // integer only).
        guard plainInteger(value) == nil, read(value, as: Int64.self) == nil,
          read(value, as: UInt64.self) == nil, read(value, as: Double.self) == nil
        else { continue }
        return problem("\(text(value)) is not a number JSONDecoder reads", at: value)
      case .null, .bool, .array, .object: continue
      }
    }
    return nil
  }
}
