import Foundation

extension RouteShape {
  /// Whether ``match(json:references:limits:)`` of the payload `bytes` is certainly
  /// ``ShapeMatch/matches``, judged straight on the bytes without building a ``JSONNode`` tree
  /// (see ``BytesShapes``); `false` means "not sure", and the caller takes
  /// ``match(json:references:limits:)``, which says what it is.
  package func certainlyMatches(
    bytes: UnsafeRawBufferPointer, references: (String) -> RouteShape?, limits: InputLimits
  ) -> Bool {
    var shapes = BytesShapes()
    let root = shapes.compile(self, references: references)
    return shapes.certainlyMatches(root, bytes: bytes, limits: limits)
  }

  /// Whether ``match(json:references:limits:)`` of the payload written inside a JSON string as
  /// `escaped` (the string's bytes between its quotes, not unescaped) is certainly
  /// ``ShapeMatch/matches``, judged on those bytes as ``BytesShapes/certainlyMatches(_:escaped:limits:)``
  /// judges them; `false` means "not sure".
  package func certainlyMatches(
    escaped: UnsafeRawBufferPointer, references: (String) -> RouteShape?, limits: InputLimits
  ) -> Bool {
    var shapes = BytesShapes()
    let root = shapes.compile(self, references: references)
    return shapes.certainlyMatches(root, escaped: escaped, limits: limits)
  }
}

/// Route shapes compiled for judging payloads on their bytes: flat tables of nodes, fields and
/// names, so that a match allocates nothing and retains nothing.
///
/// ``certainlyMatches(_:bytes:limits:)`` answers `true` only for a payload in the strict subset of
/// ``StrictJSONReader`` whose every part the shape reads is of the plainest form: strings without
/// escapes, integers written plainly (`-?(0|[1-9][0-9]*)`, at most 18 digits), keys that are
/// compared in ASCII, no opaque part, every reference described. Then ``ShapeMatcher`` certainly
/// says ``ShapeMatch/matches``. Anything else is "not sure". `FastPredictionTests`, the shape
/// agreement tests and the `fast-prediction` fuzz target check that a `true` is always a match.
package struct BytesShapes {
  typealias Unsure = StrictJSONReader.Unsure

  enum Node {
    case string
    /// An integer within the bounds of its type (``bounds(of:)``).
    case integer(ClosedRange<Int64>)
    /// `Double`, `Float`, `Date`: any plain integer is read.
    case number
    case bool
    case uuid
    case url
    case optional(Int)
    case array(Int)
    case dictionary(Int)
    /// Fields in ``fields``.
    case object(Range<Int>)
    /// Cases in ``cases``.
    case enumeration(Range<Int>)
    /// Values in ``names``.
    case stringEnum(Range<Int>)
    /// Values in ``integers``.
    case integerEnum(Range<Int>)
    /// Another node, one hop away.
    case reference(Int)
    /// Only the full matcher can tell: an opaque part, an undescribed tag, a name outside ASCII.
    case unsure
  }

  /// A name's bytes in ``text``, and the first eight of them as one word
  /// (``StrictJSONReader/prefixWord(in:)``), to compare most names in one test.
  struct Name {
    var bytes: Range<Int>
    var prefix: UInt64
    /// ``StrictJSONReader/mask(count:)`` of the name's length.
    var mask: UInt64
    /// Whether the name is written as it is inside a string (no quote, backslash or control
    /// character), so that a key is recognised by comparing the bytes where it is
    /// (``StrictJSONReader/takeName(_:of:prefix:)``) before scanning it.
    var isPlain: Bool
  }

  struct Field {
    var name: Name
    var node: Int
    var isRequired: Bool
  }

  struct Case {
    var name: Name
    /// The fields in ``fields``.
    var fields: Range<Int>
  }

  private(set) var nodes: [Node] = []
  private var fields: [Field] = []
  private var cases: [Case] = []
  private var names: [Name] = []
  private var integers: [Int64] = []
  private var text: [UInt8] = []
  /// The node of each tag compiled (or being compiled) for a reference.
  private var tags: [String: Int] = [:]
  /// Payloads remembered by ``rememberingMatchedLength(_:escaped:limits:)``.
  var layouts = PayloadLayouts()

  package init() {}

  /// Compiles `shape`, and the shapes it refers to (by `references`), returning its node.
  package mutating func compile(_ shape: RouteShape, references: (String) -> RouteShape?) -> Int {
    let index = nodes.count
    nodes.append(.unsure)
    let compiled = node(shape, references: references)
    nodes[index] = compiled
    return index
  }

  /// The node of a tag's shape, compiled once.
  package mutating func compile(tag: String, references: (String) -> RouteShape?) -> Int {
    if let index = tags[tag] { return index }
    let index = nodes.count
    nodes.append(.unsure)
    tags[tag] = index
    if let shape = references(tag) {
      let compiled = node(shape, references: references)
      nodes[index] = compiled
    }
    return index
  }

  private mutating func node(_ shape: RouteShape, references: (String) -> RouteShape?) -> Node {
    switch shape {
    case .string: return .string
    case .integer(let type): return .integer(Self.bounds(of: type))
    case .double, .date, .float: return .number
    case .bool: return .bool
    case .uuid: return .uuid
    case .url: return .url
    case .optional(let wrapped): return .optional(compile(wrapped, references: references))
    case .array(let element): return .array(compile(element, references: references))
    case .dictionary(let value): return .dictionary(compile(value, references: references))
    case .object(let fields):
      return compile(fields, references: references).map { .object($0) } ?? .unsure
    case .enumeration(let cases):
      var compiled: [Case] = []
      for enumCase in cases {
        guard let name = name(enumCase.name),
          let fields = compile(enumCase.fields, references: references)
        else { return .unsure }
        compiled.append(Case(name: name, fields: fields))
      }
      let start = self.cases.count
      self.cases += compiled
      return .enumeration(start..<self.cases.count)
    case .stringEnum(let values):
      var ranges: [Name] = []
      for value in values {
        // Compared as bytes: only ASCII compares as `String` does.
        guard let range = name(value) else { return .unsure }
        ranges.append(range)
      }
      let start = names.count
      names += ranges
      return .stringEnum(start..<names.count)
    case .integerEnum(let values):
      let start = integers.count
      integers += values
      return .integerEnum(start..<integers.count)
    case .reference(let tag): return .reference(compile(tag: tag, references: references))
    case .opaque: return .unsure
    }
  }

  /// The fields, at consecutive places of ``fields``; `nil` when a name is not ASCII or there are
  /// more than 64.
  private mutating func compile(_ fields: [RouteShape.Field], references: (String) -> RouteShape?)
    -> Range<Int>?
  {
    guard fields.count <= 64 else { return nil }
    var compiled: [Field] = []
    for field in fields {
      guard let name = name(field.name) else { return nil }
      compiled.append(
        Field(
          name: name, node: compile(field.shape, references: references),
          isRequired: field.isRequired))
    }
    let start = self.fields.count
    self.fields += compiled
    return start..<self.fields.count
  }

  /// An ASCII name stored in ``text``; `nil` for any other (a lookup by `String` finds
  /// `"\u{212A}"`, the Kelvin sign, under `"K"`).
  private mutating func name(_ name: String) -> Name? {
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let start = text.count
    text += name.utf8
    return Name(
      bytes: start..<text.count, prefix: StrictJSONReader.packed(name.utf8),
      mask: StrictJSONReader.mask(count: name.utf8.count),
      isPlain: name.utf8.allSatisfy {
        $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
      })
  }

  /// The values of `type` in 64 bits: a value it holds (``RouteShape/IntegerType/holds(_:)``) is
  /// one within them.
  static func bounds(of type: RouteShape.IntegerType) -> ClosedRange<Int64> {
    switch type {
    case .int: Int64(Int.min)...Int64(Int.max)
    case .int8: Int64(Int8.min)...Int64(Int8.max)
    case .int16: Int64(Int16.min)...Int64(Int16.max)
    case .int32: Int64(Int32.min)...Int64(Int32.max)
    case .int64: Int64.min...Int64.max
    case .uint: 0...(Int64(exactly: UInt.max) ?? Int64.max)
    case .uint8: 0...Int64(UInt8.max)
    case .uint16: 0...Int64(UInt16.max)
    case .uint32: 0...Int64(UInt32.max)
    case .uint64: 0...Int64.max
    }
  }

  /// Whether the payload `bytes` certainly matches the shape compiled as `node`.
  package func certainlyMatches(_ node: Int, bytes: UnsafeRawBufferPointer, limits: InputLimits)
    -> Bool
  {
    // As `JSONNode(parsing:limits:)` checks the payload: its size, and nesting within the limit
    // (and well within the 512 levels of JSONDecoder and of the shape matcher).
    guard bytes.count <= limits.maxPayloadBytes else { return false }
    return accepts(node, StrictJSONReader(bytes, maxDepth: min(limits.maxNestingDepth, 256)))
  }

  /// Whether the payload written inside a JSON string as the bytes `escaped` (between the
  /// string's quotes, not unescaped) certainly matches the shape compiled as `node`: as
  /// ``certainlyMatches(_:bytes:limits:)`` of the unescaped payload, read in the escaped form
  /// (``StrictJSONReader/init(escaped:maxDepth:)``), so that any escape but the quotes of the
  /// payload's strings is "not sure".
  package func certainlyMatches(_ node: Int, escaped: UnsafeRawBufferPointer, limits: InputLimits)
    -> Bool
  {
    // The escaped form is longer than the payload: within the limit, the payload is too.
    guard escaped.count <= limits.maxPayloadBytes else { return false }
    return accepts(
      node, StrictJSONReader(escaped: escaped, maxDepth: min(limits.maxNestingDepth, 256)))
  }

  /// How many of the bytes `escaped` hold a payload written inside a JSON string (and the spaces
  /// after it) that certainly matches the shape compiled as `node`, read from their start as
  /// ``certainlyMatches(_:escaped:limits:)`` reads; `nil` when not sure. The payload's string
  /// ends at the bytes that follow, if they are its closing quote: the caller checks.
  package func certainlyMatchedLength(
    _ node: Int, escaped: UnsafeRawBufferPointer, limits: InputLimits
  ) -> Int? {
    var slots = PayloadSlots(isNoting: false)
    return certainlyMatchedLength(node, escaped: escaped, limits: limits, noting: &slots)
  }

  /// ``certainlyMatchedLength(_:escaped:limits:)``, noting in `slots` (when it notes) each value
  /// the walk read against an integer or a string node: what a ``PayloadLayouts`` layout of the
  /// payload lets vary.
  func certainlyMatchedLength(
    _ node: Int, escaped: UnsafeRawBufferPointer, limits: InputLimits,
    noting slots: inout PayloadSlots
  ) -> Int? {
    var reader = StrictJSONReader(escaped: escaped, maxDepth: min(limits.maxNestingDepth, 256))
    do throws(Unsure) {
      try accept(node, &reader, hops: 0, &slots)
      reader.skipSpace()
    } catch {
      return nil
    }
    // As `certainlyMatches(_:escaped:limits:)` checks the size.
    return reader.index <= limits.maxPayloadBytes ? reader.index : nil
  }

  /// Whether `reader` reads a value the node certainly accepts, and nothing after it.
  private func accepts(_ node: Int, _ reader: StrictJSONReader) -> Bool {
    var reader = reader
    var slots = PayloadSlots(isNoting: false)
    do throws(Unsure) {
      try accept(node, &reader, hops: 0, &slots)
      reader.skipSpace()
      return reader.atEnd
    } catch {
      return false
    }
  }

  /// Consumes a value the node certainly accepts, or throws.
  private func accept(
    _ node: Int, _ reader: inout StrictJSONReader, hops: Int, _ slots: inout PayloadSlots
  ) throws(Unsure) {
    switch nodes[node] {
    case .string:
      try acceptString(&reader, &slots)
    case .integer(let bounds):
      try acceptInteger(within: bounds, &reader, &slots)
    case .number:
      // A plain integer is always read (ShapeMatcher's checkNumber says so first).
      _ = try reader.integer64()
    case .bool:
      reader.skipSpace()
      switch reader.peek() {
      case UInt8(ascii: "t"): try reader.literal("true")
      case UInt8(ascii: "f"): try reader.literal("false")
      default: throw Unsure()
      }
    case .uuid:
      let range = try reader.rawString()
      guard range.count == 36, UUID(uuidString: reader.text(in: range)) != nil else {
        throw Unsure()
      }
    case .url:
      let range = try reader.rawString()
      guard URL(string: reader.text(in: range)) != nil else { throw Unsure() }
    case .optional(let wrapped):
      if reader.takeNull() { return }
      guard hops < ShapeMatcher.maxHops else { throw Unsure() }
      try accept(wrapped, &reader, hops: hops + 1, &slots)
    case .reference(let target):
      guard hops < ShapeMatcher.maxHops else { throw Unsure() }
      try accept(target, &reader, hops: hops + 1, &slots)
    case .array(let element):
      try reader.expect(UInt8(ascii: "["))
      try reader.enter()
      defer { reader.leave() }
      if reader.take(UInt8(ascii: "]")) { return }
      repeat {
        try accept(element, &reader, hops: 0, &slots)
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "]"))
    case .dictionary(let value):
      // Every member is checked, the later of duplicate keys too: more than a decoder reads.
      try reader.expect(UInt8(ascii: "{"))
      try reader.enter()
      defer { reader.leave() }
      if reader.take(UInt8(ascii: "}")) { return }
      repeat {
        _ = try reader.rawString()
        try reader.expect(UInt8(ascii: ":"))
        try accept(value, &reader, hops: 0, &slots)
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "}"))
    case .object(let fields):
      try acceptObject(fields, &reader, &slots)
    case .enumeration(let cases):
      try acceptEnumeration(cases, &reader, &slots)
    case .stringEnum(let values):
      let range = try reader.rawString()
      guard names[values].contains(where: { same(range, reader, $0) }) else { throw Unsure() }
    case .integerEnum(let values):
      guard integers[values].contains(try reader.integer64()) else { throw Unsure() }
    case .unsure:
      throw Unsure()
    }
  }

  /// ``accept(_:_:hops:_:)`` of a field's value, its usual kinds (an integer, a string) read here
  /// without another call.
  @inline(__always)
  private func acceptField(
    _ node: Int, _ reader: inout StrictJSONReader, _ slots: inout PayloadSlots
  ) throws(Unsure) {
    switch nodes[node] {
    case .integer(let bounds): try acceptInteger(within: bounds, &reader, &slots)
    case .string: try acceptString(&reader, &slots)
    default: try accept(node, &reader, hops: 0, &slots)
    }
  }

  /// A string node's value: any plain string, noted as a slot.
  @inline(__always)
  private func acceptString(_ reader: inout StrictJSONReader, _ slots: inout PayloadSlots)
    throws(Unsure)
  {
    let start = reader.index
    _ = try reader.rawString()
    slots.noteString(start..<reader.index)
  }

  /// An integer node's value: a plain integer within `bounds`, noted as a slot.
  @inline(__always)
  private func acceptInteger(
    within bounds: ClosedRange<Int64>, _ reader: inout StrictJSONReader,
    _ slots: inout PayloadSlots
  ) throws(Unsure) {
    let start = reader.index
    guard bounds.contains(try reader.integer64()) else { throw Unsure() }
    slots.noteInteger(start..<reader.index, within: bounds)
  }

  /// Whether the payload's bytes in `range` are those of `name`.
  @inline(__always)
  private func same(_ range: Range<Int>, _ reader: StrictJSONReader, _ name: Name) -> Bool {
    guard range.count == name.bytes.count, reader.prefixWord(in: range) == name.prefix else {
      return false
    }
    // Past the first eight bytes, which the word compared.
    var offset = 8
    while offset < range.count {
      guard reader.byte(at: range.lowerBound + offset) == text[name.bytes.lowerBound + offset]
      else { return false }
      offset += 1
    }
    return true
  }

  /// The key at the reader when it is the plain name of one of `fields` not yet `seen` (the first
  /// such), recognised where it is, with that field's position, the reader then after it, its
  /// colon and the spaces after that, as after ``key(_:)``; `nil`, the reader after the spaces
  /// before it, when not.
  @inline(__always)
  private func knownKey(
    _ fields: Range<Int>, unseen seen: UInt64, _ reader: inout StrictJSONReader
  ) throws(Unsure) -> (position: Int, key: Range<Int>)? {
    try knownName(fields, unseen: seen, { self.fields[$0].name }, &reader)
  }

  /// The first of `positions` not yet `seen` whose plain name (`name(position)`) is the key at the
  /// reader, recognised where it is, as ``knownKey(_:unseen:_:)`` and ``knownCase(_:_:)`` say.
  @inline(__always)
  private func knownName(
    _ positions: Range<Int>, unseen seen: UInt64, _ name: (Int) -> Name,
    _ reader: inout StrictJSONReader
  ) throws(Unsure) -> (position: Int, key: Range<Int>)? {
    reader.skipSpace()
    guard let opening = reader.nameOpening() else { return nil }
    for position in positions where seen & Self.bit(position, of: positions) == 0 {
      let name = name(position)
      guard name.isPlain,
        let key = reader.takeName(
          at: opening, name.bytes, of: text, prefix: name.prefix, mask: name.mask)
      else { continue }
      try reader.expect(UInt8(ascii: ":"))
      reader.skipSpace()
      return (position, key)
    }
    return nil
  }

  /// The bit of the field at `position` of `fields` (at most 64) in a set of fields.
  @inline(__always)
  private static func bit(_ position: Int, of fields: Range<Int>) -> UInt64 {
    1 &<< UInt64(truncatingIfNeeded: position &- fields.lowerBound)
  }

  /// The first of `cases` whose plain name is the key at the reader, recognised where it is, and
  /// the key's range, the reader then as after ``key(_:)``; `nil`, the reader after the spaces
  /// before it, when there is none.
  @inline(__always)
  private func knownCase(_ cases: Range<Int>, _ reader: inout StrictJSONReader) throws(Unsure)
    -> (position: Int, key: Range<Int>)?
  {
    try knownName(cases, unseen: 0, { self.cases[$0].name }, &reader)
  }

  /// A key compared with names: ASCII only (see ``name(_:)``).
  @inline(__always)
  private func key(_ reader: inout StrictJSONReader) throws(Unsure) -> Range<Int> {
    let key = try reader.asciiRawString()
    try reader.expect(UInt8(ascii: ":"))
    reader.skipSpace()
    return key
  }

  /// A keyed object: each field's value is the first member of its name (checked when it comes),
  /// later members of that name and members no field names are skipped (they must still be in the
  /// strict subset), and a required field must be present.
  private func acceptObject(
    _ fields: Range<Int>, _ reader: inout StrictJSONReader, _ slots: inout PayloadSlots
  ) throws(Unsure) {
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    defer { reader.leave() }
    var seen: UInt64 = 0
    if !reader.take(UInt8(ascii: "}")) {
      repeat {
        // A key naming a field is mostly recognised where it is (the fields before the first of
        // its name, which it is not, need no comparing again); any other is scanned.
        let key: Range<Int>
        var first = fields.lowerBound
        // The field recognised, whose name needs no comparing again.
        var recognised = -1
        if let known = try knownKey(fields, unseen: seen, &reader) {
          (first, key) = known
          recognised = first
        } else {
          key = try self.key(&reader)
        }
        let start = reader.index
        var end: Int?
        // Every field of that name reads this member (a shape may name a field twice).
        for position in first..<fields.upperBound
        where seen & Self.bit(position, of: fields) == 0 {
          let field = self.fields[position]
          guard position == recognised || same(key, reader, field.name) else { continue }
          seen |= Self.bit(position, of: fields)
          reader.index = start
          if field.isRequired || !reader.takeNull() {
            try acceptField(field.node, &reader, &slots)
          }
          end = reader.index
        }
        if let end {
          reader.index = end
        } else {
          try reader.skipValue()
        }
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "}"))
    }
    for position in fields
    where seen & Self.bit(position, of: fields) == 0 && self.fields[position].isRequired {
      throw Unsure()
    }
  }

  /// An enum: exactly one case named by the keys (the first member of that name is its payload,
  /// an object of the case's fields); other members are skipped.
  private func acceptEnumeration(
    _ cases: Range<Int>, _ reader: inout StrictJSONReader, _ slots: inout PayloadSlots
  ) throws(Unsure) {
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    defer { reader.leave() }
    var chosen: Range<Int>?
    if !reader.take(UInt8(ascii: "}")) {
      repeat {
        // A key naming a case is mostly recognised where it is; any other is scanned and
        // compared (a name that is not plain is no key without escapes).
        let key: Range<Int>
        let named: Int?
        if let known = try knownCase(cases, &reader) {
          (named, key) = (known.position, known.key)
        } else {
          key = try self.key(&reader)
          named = cases.first(where: { same(key, reader, self.cases[$0].name) })
        }
        if let named {
          if let chosen {
            // A second key naming a case: only a repetition of the chosen one (which is not
            // read) is sure.
            guard reader.bytes(in: key, equalBytesIn: chosen) else { throw Unsure() }
            try reader.skipValue()
          } else {
            chosen = key
            try acceptObject(self.cases[named].fields, &reader, &slots)
          }
        } else {
          try reader.skipValue()
        }
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "}"))
    }
    guard chosen != nil else { throw Unsure() }
  }
}
