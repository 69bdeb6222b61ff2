import Foundation

/// The usual answer of ``RouteManifest/predict(encoded:policy:limits:)`` found straight from a
/// document's bytes: for tools that judge every scene of a store (`waypoint validate`).
///
/// ``keptRoutes(in:)`` reads the document as ``StrictJSONReader`` does (a subset of it: no escapes
/// in keys or tags, no unknown keys, stack names in ASCII) without building a ``SceneSnapshot``,
/// a ``JSONNode`` tree or a dictionary, and answers only when the prediction is certainly the
/// plainest one: the snapshot restores whole, every route kept as stored (none migrated, dropped or
/// left to the app), under any policy. Anything else, or anything unusual, answers `nil`, and the
/// caller takes ``RouteManifest/predict(encoded:policy:limits:)``, which says what it is. So an
/// answer is always the one the full prediction gives, only sooner; `FastPredictionTests` and the
/// `fast-prediction` fuzz target compare the two.
///
/// The bytes are read as a store keeps them, in their stored form (``StoredDocument``): a route of
/// a stack without a tag has the previous route's exactly where ``StoredDocument/expanded(_:limits:)``
/// puts it back, and the answer is the full prediction's of the expanded document (the size limit
/// applies to it too). A document whose routes all carry their tags is its own stored form.
package struct FastPrediction {
  private let manifest: RouteManifest
  /// The limits the documents are read under.
  package let limits: InputLimits
  /// The stack names of the document being read (reused).
  private var stackNames: [Range<Int>] = []
  /// The bytes that expanding the document being read adds: `,"tag":` and each inherited tag.
  private var inheritedBytes = 0
  /// The tags met so far, as their bytes in ``tagText`` (and their first eight packed in a word,
  /// ``StrictJSONReader/packed(_:)``), with the version a route of that tag must have to be kept
  /// as stored and its shape's node in ``shapes``; `nil` for a tag unknown to the manifest.
  private var tags: [(bytes: Range<Int>, prefix: UInt64, route: (version: Int64, node: Int)?)] = []
  /// The bytes of the tags met, one after the other (one array, which comparing a tag does not
  /// retain).
  private var tagText: [UInt8] = []
  /// The place in ``tags`` of the last tag found.
  private var lastTag = 0
  /// The place in ``tags`` of the last tag found outside the stacks (the selected tab, the sheet,
  /// the split view's selections), kept apart from ``lastTag`` while the stacks are read: a tab's
  /// type is mostly not the stacks' routes', and each route's payload is first matched against the
  /// shape of the last tag found where it is.
  private var lastTagOutsideStacks = 0
  /// The shapes of the tags met, compiled.
  private var shapes = BytesShapes()
  /// Whether payloads are first compared with the layouts of those judged before
  /// (``BytesShapes/rememberingMatchedLength(_:escaped:limits:)``).
  private let remembersLayouts: Bool

  /// How many payloads were judged by a remembered layout instead of a walk of their shape.
  package var payloadsJudgedByLayout: Int { shapes.layouts.answers }

  /// A predictor for `manifest`, reading under `limits`; with `remembersLayouts: false`, every
  /// payload is walked (the same answers, for tests that compare the two).
  package init(manifest: RouteManifest, limits: InputLimits, remembersLayouts: Bool = true) {
    self.manifest = manifest
    self.limits = limits
    self.remembersLayouts = remembersLayouts
  }

  /// The number of routes of the snapshot document `document` when
  /// ``RouteManifest/predict(encoded:policy:limits:)`` (under any policy) certainly restores it
  /// whole with every route kept as stored; `nil` when that is not certain.
  package mutating func keptRoutes(in document: UnsafeRawBufferPointer) -> Int? {
    guard document.count <= limits.maxDocumentBytes else { return nil }
    var reader = StrictJSONReader(document, maxDepth: limits.maxNestingDepth)
    inheritedBytes = 0
    do throws(StrictJSONReader.Unsure) {
      let count = try read(&reader)
      reader.skipSpace()
      // The limit is the expanded document's.
      guard reader.atEnd, inheritedBytes <= limits.maxDocumentBytes - document.count else {
        return nil
      }
      return count
    } catch {
      return nil
    }
  }

  private enum Member: Int {
    case format, routeSchemaVersion, appBuild, savedAt, stacks, selectedTab, sheet, split
  }

  private mutating func read(_ reader: inout StrictJSONReader) throws(StrictJSONReader.Unsure)
    -> Int
  {
    typealias Unsure = StrictJSONReader.Unsure
    var seen: UInt16 = 0
    var routes = 0
    var hasFormat = false
    var hasSavedAt = false
    // The members read in a loop of this function's own: in a closure, every route read
    // (a mutating call) copied the predictor, its arrays retained.
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    defer { reader.leave() }
    if !reader.take(UInt8(ascii: "}")) {
      repeat {
        // Keys in ASCII only: every key is compared with ASCII names (see `members`).
        let key = try reader.asciiRawString()
        try reader.expect(UInt8(ascii: ":"))
        guard let member = Self.topLevel(key, reader) else { throw Unsure() }
        // A repeated key: the strict reader is unsure too.
        guard seen & (1 << member.rawValue) == 0 else { throw Unsure() }
        seen |= 1 << member.rawValue
        switch member {
        case .format:
          let format = try reader.integer64()
          guard format >= 1, format <= Int64(SceneSnapshot.currentFormatVersion) else {
            throw Unsure()
          }
          hasFormat = true
        case .routeSchemaVersion:
          // Neither below 1 (unreadable) nor above the manifest's (a newer schema drops it all).
          let version = reader.takeNull() ? 1 : try reader.integer64()
          guard version >= 1, version <= Int64(manifest.schemaVersion) else { throw Unsure() }
        case .appBuild:
          if !reader.takeNull() { try Self.skipString(&reader) }
        case .savedAt:
          let range = try reader.rawString()
          // The form Waypoint writes read on its bytes first: a date it reads, the string's
          // reading gives too.
          guard
            ISO8601Seconds.parse(secondsForm: UnsafeRawBufferPointer(rebasing: reader.bytes[range]))
              != nil || ISO8601Seconds.parse(reader.text(in: range)) != nil
          else { throw Unsure() }
          hasSavedAt = true
        case .stacks:
          if reader.takeNull() { break }
          routes += try stacks(&reader)
        case .selectedTab, .sheet:
          if !reader.takeNull() {
            swap(&lastTag, &lastTagOutsideStacks)
            defer { swap(&lastTag, &lastTagOutsideStacks) }
            try route(&reader)
            routes += 1
          }
        case .split:
          if reader.takeNull() { break }
          swap(&lastTag, &lastTagOutsideStacks)
          defer { swap(&lastTag, &lastTagOutsideStacks) }
          routes += try split(&reader)
        }
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "}"))
    }
    guard hasFormat, hasSavedAt else { throw Unsure() }
    return routes
  }

  /// The stacks: each name once, each route kept; their number of routes. Read in loops of its
  /// own, not in closures (which copied the predictor, its arrays retained, for every stack).
  private mutating func stacks(_ reader: inout StrictJSONReader) throws(StrictJSONReader.Unsure)
    -> Int
  {
    typealias Unsure = StrictJSONReader.Unsure
    var routes = 0
    stackNames.removeAll(keepingCapacity: true)
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    defer { reader.leave() }
    if reader.take(UInt8(ascii: "}")) { return 0 }
    repeat {
      // Names compared as bytes: only ASCII ones (all keys are, see `members`) compare as the
      // strict reader's strings do.
      let name = try reader.asciiRawString()
      try reader.expect(UInt8(ascii: ":"))
      for other in stackNames where reader.bytes(in: other, equalBytesIn: name) {
        throw Unsure()
      }
      stackNames.append(name)
      try reader.expect(UInt8(ascii: "["))
      try reader.enter()
      if !reader.take(UInt8(ascii: "]")) {
        // A route after the first may leave out its tag when it is the previous one's (the
        // stored form, `StoredDocument`).
        var inheriting = false
        repeat {
          try route(&reader, inheriting: inheriting)
          inheriting = true
          routes += 1
        } while reader.take(UInt8(ascii: ","))
        try reader.expect(UInt8(ascii: "]"))
      }
      reader.leave()
    } while reader.take(UInt8(ascii: ","))
    try reader.expect(UInt8(ascii: "}"))
    return routes
  }

  /// A split view: its selections must be kept, its values known.
  private mutating func split(_ reader: inout StrictJSONReader) throws(StrictJSONReader.Unsure)
    -> Int
  {
    typealias Unsure = StrictJSONReader.Unsure
    var seen: UInt8 = 0
    var routes = 0
    try Self.members(&reader) { reader, key throws(Unsure) in
      guard
        let position = Self.splitNames.firstIndex(where: { reader.bytes(in: key, equalBytes: $0) }),
        seen & (1 << position) == 0
      else { throw Unsure() }
      seen |= 1 << position
      guard !reader.takeNull() else { return }
      switch position {
      case 0, 1:
        try route(&reader)
        routes += 1
      case 2:
        let value = try reader.rawString()
        guard Self.columnVisibilities.contains(where: { reader.bytes(in: value, equalBytes: $0) })
        else { throw Unsure() }
      default:
        let value = try reader.rawString()
        guard Self.splitColumns.contains(where: { reader.bytes(in: value, equalBytes: $0) })
        else { throw Unsure() }
      }
    }
    return routes
  }

  /// One route: its tag known, its version the current one, its payload certainly matching.
  /// `inheriting`: a route of a stack after its first, which without a `"tag"` member and with
  /// `"json"` as its first has the previous route's tag, as ``StoredDocument`` expands it (that
  /// route's tag is `lastTag`: the previous route was read).
  private mutating func route(_ reader: inout StrictJSONReader, inheriting: Bool = false)
    throws(StrictJSONReader.Unsure)
  {
    typealias Unsure = StrictJSONReader.Unsure
    if try plainRoute(&reader, inheriting: inheriting) { return }
    var tag: Range<Int>?
    var version: Int64?
    // The payload's string, its bytes as written (matched without unescaping them).
    var payload: Range<Int>?
    // The node the payload was found certainly matching as it was read, before its tag.
    var matched: Int?
    // Whether the first member is `"json"`, and how many were read.
    var jsonFirst = false
    var members = 0
    // The shape of the last route's tag, which most routes share: a payload read before its
    // tag is matched against it as it is read (its end found by that reading), and against its
    // own tag's shape afterwards only when that is another.
    let guess = lastTag < tags.count ? tags[lastTag].route?.node : nil
    // The members read in a loop of this function's own (in a closure, reading the payload
    // copied the predictor).
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    if !reader.take(UInt8(ascii: "}")) {
      repeat {
        // Keys in ASCII only: every key is compared with ASCII names (see `members`).
        let key = try reader.asciiRawString()
        try reader.expect(UInt8(ascii: ":"))
        let word = reader.prefixWord(in: key)
        if key.count == 3, word == Self.tagKey {
          guard tag == nil else { throw Unsure() }
          tag = try reader.rawString()
        } else if key.count == 4, word == Self.jsonKey {
          guard payload == nil else { throw Unsure() }
          jsonFirst = members == 0
          if tag == nil, let guess, let range = speculate(guess, &reader) {
            payload = range
            matched = guess
          } else {
            payload = try Self.escapedString(&reader)
          }
        } else if key.count == 7, word == Self.versionKey {
          guard version == nil else { throw Unsure() }
          // A missing or null version is 1.
          version = reader.takeNull() ? 1 : try reader.integer64()
        } else {
          throw Unsure()
        }
        members += 1
      } while reader.take(UInt8(ascii: ","))
      try reader.expect(UInt8(ascii: "}"))
    }
    reader.leave()
    let current: (version: Int64, node: Int)?
    if let tag {
      current = self.current(tag, reader)
    } else if inheriting, jsonFirst, lastTag < tags.count {
      current = tags[lastTag].route
      inherit()
    } else {
      current = nil
    }
    guard let payload, let current, current.version == version ?? 1,
      matched == current.node || matches(current.node, payload: payload, reader)
    else { throw Unsure() }
  }

  /// A route as Waypoint writes it, `{"json":"…","tag":"…"}` (no spaces, no version), of the last
  /// route's tag (a version-1 route of the manifest), its payload certainly matching that tag's
  /// shape: read by comparing its bytes where they are, to the same answer and the same place as
  /// the members' reading of ``route(_:inheriting:)``; when `inheriting`, also `{"json":"…"}`, the
  /// tag left out. `false`, the reader unmoved, for any other bytes (``route(_:inheriting:)``
  /// reads them).
  @inline(__always)
  private mutating func plainRoute(_ reader: inout StrictJSONReader, inheriting: Bool)
    throws(StrictJSONReader.Unsure)
    -> Bool
  {
    guard lastTag < tags.count, let current = tags[lastTag].route, current.version == 1 else {
      return false
    }
    reader.skipSpace()
    let start = reader.index
    guard reader.eightBytes(at: start) == Self.routeOpening else { return false }
    // As the members' reading enters the route's object.
    try reader.enter()
    defer { reader.leave() }
    reader.index = start + 8
    // The payload's string as `route(_:)` reads it when its tag comes after it.
    guard speculate(current.node, &reader) != nil else {
      reader.index = start
      return false
    }
    // `{"json":"…"}`: the previous route's tag, left out.
    if inheriting, reader.index < reader.bytes.count,
      reader.byte(at: reader.index) == UInt8(ascii: "}")
    {
      reader.index += 1
      inherit()
      return true
    }
    guard
      let next = reader.eightBytes(at: reader.index),
      next & 0x00FF_FFFF_FFFF_FFFF == Self.tagMember
    else {
      reader.index = start
      return false
    }
    // The tag's bytes were read by `rawString()` when the tag was first met: plain in a string.
    reader.index += 7
    guard
      reader.takeName(
        tags[lastTag].bytes, of: tagText, prefix: tags[lastTag].prefix)
        != nil,
      reader.index < reader.bytes.count, reader.byte(at: reader.index) == UInt8(ascii: "}")
    else {
      reader.index = start
      return false
    }
    reader.index += 1
    return true
  }

  /// Counts the bytes that expanding a route without its tag adds: `,"tag":` and the last tag
  /// quoted (read without escapes, so written as it is).
  @inline(__always)
  private mutating func inherit() {
    inheritedBytes &+= 9 + tags[lastTag].bytes.count
  }

  /// Whether the payload string whose bytes between the quotes are in `payload` certainly
  /// matches the shape compiled as `node`: ``BytesShapes/certainlyMatches(_:escaped:limits:)``,
  /// answered from a remembered layout when one fits.
  private mutating func matches(_ node: Int, payload: Range<Int>, _ reader: StrictJSONReader)
    -> Bool
  {
    let escaped = UnsafeRawBufferPointer(rebasing: reader.bytes[payload])
    // The whole string, and nothing after the value: what `certainlyMatches` checks.
    return matchedLength(node, escaped: escaped) == escaped.count
  }

  /// ``BytesShapes/certainlyMatchedLength(_:escaped:limits:)`` of the payload at the start of
  /// `escaped`, answered from a remembered layout when this predictor remembers them.
  private mutating func matchedLength(_ node: Int, escaped: UnsafeRawBufferPointer) -> Int? {
    remembersLayouts
      ? shapes.rememberingMatchedLength(node, escaped: escaped, limits: limits)
      : shapes.certainlyMatchedLength(node, escaped: escaped, limits: limits)
  }

  /// The payload string at the reader, matched against the shape compiled as `node` as it is
  /// read: its range between the quotes when it certainly matches (the reader then after it), or
  /// `nil` (the reader where it was). Reading on from the string's start to the document's end, a
  /// certain match followed by a quote (the payload's reading in its escaped form never takes a
  /// bare one) ends at the string's end, so the answer is
  /// ``BytesShapes/certainlyMatches(_:escaped:limits:)``'s of that string.
  private mutating func speculate(_ node: Int, _ reader: inout StrictJSONReader) -> Range<Int>? {
    reader.skipSpace()
    guard reader.peek() == UInt8(ascii: "\"") else { return nil }
    let start = reader.index + 1
    let rest = UnsafeRawBufferPointer(rebasing: reader.bytes[start...])
    guard let count = matchedLength(node, escaped: rest),
      count < rest.count, rest[count] == UInt8(ascii: "\"")
    else { return nil }
    reader.index = start + count + 1
    return start..<(start + count)
  }

  /// The version a route of the tag in `range` must have to be kept as stored, and its shape's
  /// node.
  private mutating func current(_ range: Range<Int>, _ reader: StrictJSONReader)
    -> (version: Int64, node: Int)?
  {
    // The tag of the last route first: a document's routes mostly share one.
    if lastTag < tags.count, reader.bytes(in: range, equalBytesIn: tags[lastTag].bytes, of: tagText)
    {
      return tags[lastTag].route
    }
    for (index, entry) in tags.enumerated()
    where reader.bytes(in: range, equalBytesIn: entry.bytes, of: tagText) {
      lastTag = index
      return entry.route
    }
    // Compiled once per tag: a store's documents name few tags (beyond 256, not sure).
    guard tags.count < 256 else { return nil }
    let name = reader.text(in: range)
    let route = manifest.route(named: name).map { route in
      (
        version: Int64(route.version),
        node: shapes.compile(route.shape, references: manifest.shape(ofTag:))
      )
    }
    let start = tagText.count
    tagText += name.utf8
    tags.append((start..<tagText.count, StrictJSONReader.packed(name.utf8), route))
    // The last tag found, as the other answers leave it (a route after it may inherit it).
    lastTag = tags.count - 1
    return route
  }

  // Words packed as `StrictJSONReader.packed(_:)` packs them, written out (a `static let` is
  // checked for its initialization at every use); `FastPredictionTests` compares them.
  /// `{"json":`, the start of a route as Waypoint writes it.
  static var routeOpening: UInt64 { 0x3A22_6E6F_736A_227B }
  /// `,"tag":`, between a route's payload and its tag as Waypoint writes them.
  static var tagMember: UInt64 { 0x3A_2267_6174_222C }
  /// `tag`.
  static var tagKey: UInt64 { 0x67_6174 }
  /// `json`.
  static var jsonKey: UInt64 { 0x6E6F_736A }
  /// `version`.
  static var versionKey: UInt64 { 0x6E_6F69_7372_6576 }

  private static let splitNames = [
    "sidebar", "content", "columnVisibility", "preferredCompactColumn",
  ].map { Array($0.utf8) }

  private static let columnVisibilities = ColumnVisibility.known.map { Array($0.rawValue.utf8) }
  private static let splitColumns = SplitColumn.known.map { Array($0.rawValue.utf8) }

  private static func topLevel(_ key: Range<Int>, _ reader: StrictJSONReader) -> Member? {
    if reader.bytes(in: key, are: "stacks") { return .stacks }
    if reader.bytes(in: key, are: "format") { return .format }
    if reader.bytes(in: key, are: "savedAt") { return .savedAt }
    if reader.bytes(in: key, are: "appBuild") { return .appBuild }
    if reader.bytes(in: key, are: "routeSchemaVersion") { return .routeSchemaVersion }
    if reader.bytes(in: key, are: "selectedTab") { return .selectedTab }
    if reader.bytes(in: key, are: "sheet") { return .sheet }
    if reader.bytes(in: key, are: "split") { return .split }
    return nil
  }

  /// A string's bytes between its quotes, as written: its end found by JSON's rules (a backslash
  /// escapes the byte after it), nothing else checked (the payload's reading in its escaped form
  /// checks every byte).
  private static func escapedString(
    _ reader: inout StrictJSONReader
  ) throws(StrictJSONReader.Unsure) -> Range<Int> {
    reader.skipSpace()
    guard reader.peek() == UInt8(ascii: "\"") else { throw StrictJSONReader.Unsure() }
    let bytes = reader.bytes
    let start = reader.index + 1
    var offset = start
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: "\""):
        reader.index = offset + 1
        return start..<offset
      case UInt8(ascii: "\\"): offset += 2
      default: offset += 1
      }
    }
    throw StrictJSONReader.Unsure()
  }

  /// A string, checked as ``StrictJSONReader/string()`` checks it.
  private static func skipString(_ reader: inout StrictJSONReader) throws(StrictJSONReader.Unsure) {
    reader.skipSpace()
    guard reader.peek() == UInt8(ascii: "\"") else { throw StrictJSONReader.Unsure() }
    try reader.skipValue()
  }

  /// An object's members: `body` gets each key (no escapes, ASCII only: every key read here is
  /// compared with ASCII names) and consumes its value.
  @inline(__always)
  private static func members(
    _ reader: inout StrictJSONReader,
    _ body: (inout StrictJSONReader, Range<Int>) throws(StrictJSONReader.Unsure) -> Void
  ) throws(StrictJSONReader.Unsure) {
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    defer { reader.leave() }
    if reader.take(UInt8(ascii: "}")) { return }
    repeat {
      let key = try reader.asciiRawString()
      try reader.expect(UInt8(ascii: ":"))
      try body(&reader, key)
    } while reader.take(UInt8(ascii: ","))
    try reader.expect(UInt8(ascii: "}"))
  }
}
