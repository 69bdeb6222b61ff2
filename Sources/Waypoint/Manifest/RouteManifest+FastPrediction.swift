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
package struct FastPrediction {
  /// A buffer allocated once, freed with its last reference.
  private final class Scratch {
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int = 4096) {
      bytes = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit { bytes.deallocate() }
  }

  private let manifest: RouteManifest
  /// The limits the documents are read under.
  package let limits: InputLimits
  /// The payload being judged, unescaped (reused from route to route).
  private var payload = Scratch()
  /// The stack names of the document being read (reused).
  private var stackNames: [Range<Int>] = []
  /// The tags met so far, as bytes, with the version a route of that tag must have to be kept as
  /// stored and its shape's node in ``shapes``; `nil` for a tag unknown to the manifest.
  private var tags: [(bytes: [UInt8], route: (version: Int64, node: Int)?)] = []
  /// The shapes of the tags met, compiled.
  private var shapes = BytesShapes()

  /// A predictor for `manifest`, reading under `limits`.
  package init(manifest: RouteManifest, limits: InputLimits) {
    self.manifest = manifest
    self.limits = limits
  }

  /// The number of routes of the snapshot document `document` when
  /// ``RouteManifest/predict(encoded:policy:limits:)`` (under any policy) certainly restores it
  /// whole with every route kept as stored; `nil` when that is not certain.
  package mutating func keptRoutes(in document: UnsafeRawBufferPointer) -> Int? {
    guard document.count <= limits.maxDocumentBytes else { return nil }
    // A payload is never longer than its document.
    if payload.bytes.count < document.count {
      payload = Scratch(capacity: max(document.count, 2 * payload.bytes.count))
    }
    var reader = StrictJSONReader(document, maxDepth: limits.maxNestingDepth)
    do throws(StrictJSONReader.Unsure) {
      let count = try read(&reader)
      reader.skipSpace()
      return reader.atEnd ? count : nil
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
    try Self.members(&reader) { reader, key throws(Unsure) in
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
        guard ISO8601Seconds.parse(reader.text(in: range)) != nil else { throw Unsure() }
        hasSavedAt = true
      case .stacks:
        guard !reader.takeNull() else { return }
        stackNames.removeAll(keepingCapacity: true)
        try Self.members(&reader) { reader, name throws(Unsure) in
          // Names compared as bytes: only ASCII ones compare as the strict reader's strings do.
          guard !name.contains(where: { reader.byte(at: $0) >= 0x80 }),
            !stackNames.contains(where: { reader.bytes(in: $0, equalBytesIn: name) })
          else { throw Unsure() }
          stackNames.append(name)
          try reader.expect(UInt8(ascii: "["))
          try reader.enter()
          defer { reader.leave() }
          if reader.take(UInt8(ascii: "]")) { return }
          repeat {
            try route(&reader)
            routes += 1
          } while reader.take(UInt8(ascii: ","))
          try reader.expect(UInt8(ascii: "]"))
        }
      case .selectedTab, .sheet:
        if !reader.takeNull() {
          try route(&reader)
          routes += 1
        }
      case .split:
        guard !reader.takeNull() else { return }
        routes += try split(&reader)
      }
    }
    guard hasFormat, hasSavedAt else { throw Unsure() }
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
  private mutating func route(_ reader: inout StrictJSONReader) throws(StrictJSONReader.Unsure) {
    typealias Unsure = StrictJSONReader.Unsure
    var tag: Range<Int>?
    var version: Int64?
    var payloadCount: Int?
    try Self.members(&reader) { reader, key throws(Unsure) in
      let name = Self.routeNames.firstIndex { reader.bytes(in: key, equalBytes: $0) }
      if name == 0 {
        guard tag == nil else { throw Unsure() }
        tag = try reader.rawString()
      } else if name == 1 {
        guard payloadCount == nil else { throw Unsure() }
        payloadCount = try Self.string(&reader, into: payload.bytes)
      } else if name == 2 {
        guard version == nil else { throw Unsure() }
        // A missing or null version is 1.
        version = reader.takeNull() ? 1 : try reader.integer64()
      } else {
        throw Unsure()
      }
    }
    guard let tag, let payloadCount, let current = current(tag, reader),
      current.version == version ?? 1,
      shapes.certainlyMatches(
        current.node, bytes: UnsafeRawBufferPointer(rebasing: payload.bytes[..<payloadCount]),
        limits: limits)
    else { throw Unsure() }
  }

  /// The version a route of the tag in `range` must have to be kept as stored, and its shape's
  /// node.
  private mutating func current(_ range: Range<Int>, _ reader: StrictJSONReader)
    -> (version: Int64, node: Int)?
  {
    for entry in tags where reader.bytes(in: range, equalBytes: entry.bytes) {
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
    tags.append((Array(name.utf8), route))
    return route
  }

  private static let topLevelNames: [(member: Member, name: [UInt8])] = {
    let names: [(Member, String)] = [
      (.format, "format"), (.routeSchemaVersion, "routeSchemaVersion"), (.appBuild, "appBuild"),
      (.savedAt, "savedAt"), (.stacks, "stacks"), (.selectedTab, "selectedTab"),
      (.sheet, "sheet"), (.split, "split"),
    ]
    return names.map { ($0.0, Array($0.1.utf8)) }
  }()

  private static let splitNames = [
    "sidebar", "content", "columnVisibility", "preferredCompactColumn",
  ].map { Array($0.utf8) }

  private static let routeNames = ["tag", "json", "version"].map { Array($0.utf8) }
  private static let columnVisibilities = ColumnVisibility.known.map { Array($0.rawValue.utf8) }
  private static let splitColumns = SplitColumn.known.map { Array($0.rawValue.utf8) }

  private static func topLevel(_ key: Range<Int>, _ reader: StrictJSONReader) -> Member? {
    topLevelNames.first { reader.bytes(in: key, equalBytes: $0.name) }?.member
  }

  /// A string unescaped into `buffer` (as long as the document at least), as
  /// ``StrictJSONReader/string()`` unescapes it; `\u` escapes are unsure. Returns its length.
  private static func string(
    _ reader: inout StrictJSONReader, into buffer: UnsafeMutableRawBufferPointer
  )
    throws(StrictJSONReader.Unsure) -> Int
  {
    reader.skipSpace()
    guard reader.peek() == UInt8(ascii: "\"") else { throw StrictJSONReader.Unsure() }
    reader.index += 1
    let bytes = reader.bytes
    var index = reader.index
    var count = 0
    defer { reader.index = index }
    while index < bytes.count {
      let byte = bytes[index]
      if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
        buffer[count] = byte
        count += 1
        index += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return count
      case UInt8(ascii: "\\"):
        guard index + 1 < bytes.count else { throw StrictJSONReader.Unsure() }
        let unescaped: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped = bytes[index + 1]
        case UInt8(ascii: "b"): unescaped = 0x08
        case UInt8(ascii: "f"): unescaped = 0x0C
        case UInt8(ascii: "n"): unescaped = 0x0A
        case UInt8(ascii: "r"): unescaped = 0x0D
        case UInt8(ascii: "t"): unescaped = 0x09
        default: throw StrictJSONReader.Unsure()
        }
        buffer[count] = unescaped
        count += 1
        index += 2
      case 0..<0x20:
        throw StrictJSONReader.Unsure()
      default:
        // Valid UTF-8, copied as it is.
        reader.index = index
        let length = try reader.utf8Sequence()
        for offset in 0..<length { buffer[count + offset] = bytes[index + offset] }
        count += length
        index += length
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

  /// An object's members: `body` gets each key (no escapes) and consumes its value.
  private static func members(
    _ reader: inout StrictJSONReader,
    _ body: (inout StrictJSONReader, Range<Int>) throws(StrictJSONReader.Unsure) -> Void
  ) throws(StrictJSONReader.Unsure) {
    try reader.expect(UInt8(ascii: "{"))
    try reader.enter()
    defer { reader.leave() }
    if reader.take(UInt8(ascii: "}")) { return }
    repeat {
      let key = try reader.rawString()
      try reader.expect(UInt8(ascii: ":"))
      try body(&reader, key)
    } while reader.take(UInt8(ascii: ","))
    try reader.expect(UInt8(ascii: "}"))
  }
}
