import Foundation

extension SceneSnapshot {
  /// Reads a snapshot document as ``init(decoding:limits:)`` does, with the same result and the
  /// same errors, sooner for the documents Waypoint writes: those are read straight from their bytes
  /// (``StrictJSONReader``); anything else goes through ``init(decoding:limits:)``. For tools that
  /// read every document of a store.
  ///
  /// - Parameters:
  ///   - data: The document's bytes.
  ///   - limits: The limits ``init(decoding:limits:)`` applies.
  ///   - unknownKeys: Whether a document with keys the format does not name may be read the fast
  ///     way (they are ignored, as `JSONDecoder` ignores them); `false` sends it the slow way.
  /// - Throws: ``SnapshotFormatError``, as ``init(decoding:limits:)`` throws it.
  package init(reading data: Data, limits: InputLimits = .default, unknownKeys: Bool = true)
    throws(SnapshotFormatError)
  {
    if let snapshot = Self.strictlyRead(data, limits: limits, unknownKeys: unknownKeys) {
      self = snapshot
    } else {
      try self.init(decoding: data, limits: limits)
    }
  }

  /// The snapshot, when `data` is a valid document in the strict subset; `nil` otherwise (then
  /// ``init(decoding:limits:)`` says what it is).
  package static func strictlyRead(_ data: Data, limits: InputLimits, unknownKeys: Bool)
    -> SceneSnapshot?
  {
    guard data.count <= limits.maxDocumentBytes else { return nil }
    return data.withUnsafeBytes { bytes -> SceneSnapshot? in
      var reader = StrictJSONReader(bytes, maxDepth: limits.maxNestingDepth)
      do throws(StrictJSONReader.Unsure) {
        let snapshot = try strictlyRead(from: &reader, unknownKeys: unknownKeys)
        reader.skipSpace()
        return reader.atEnd ? snapshot : nil
      } catch {
        return nil
      }
    }
  }

  /// The snapshot document that `reader` stands before, read in place (a document inside a larger
  /// JSON text, such as a line of `waypoint export`). The caller checks the document's size.
  ///
  /// - Throws: ``StrictJSONReader/Unsure`` for anything ``init(decoding:limits:)`` should judge.
  package static func strictlyRead(from reader: inout StrictJSONReader, unknownKeys: Bool)
    throws(StrictJSONReader.Unsure) -> SceneSnapshot
  {
    var document = StrictDocument()
    try reader.object { reader, key throws(StrictJSONReader.Unsure) in
      try document.read(key, from: &reader, unknownKeys: unknownKeys)
    }
    guard let snapshot = document.snapshot() else { throw StrictJSONReader.Unsure() }
    return snapshot
  }
}

/// The members of a snapshot document, as ``SnapshotDocument`` holds them.
private struct StrictDocument {
  typealias Unsure = StrictJSONReader.Unsure

  var format: Int?
  var routeSchemaVersion: Int?
  var appBuild: String?
  var savedAt: String?
  var stacks: [String: [RouteRecord]]?
  var selectedTab: RouteRecord?
  var split: SplitViewSnapshot?
  var sheet: RouteRecord?

  mutating func read(_ key: String, from reader: inout StrictJSONReader, unknownKeys: Bool)
    throws(Unsure)
  {
    switch key {
    case "format":
      let value = try reader.integer()
      // As in `SnapshotDocument.init(from:)`: a newer format is not read further (the slow way
      // says so).
      guard value >= 1, value <= SceneSnapshot.currentFormatVersion else { throw Unsure() }
      format = value
    case "routeSchemaVersion":
      routeSchemaVersion = reader.takeNull() ? nil : try reader.integer()
    case "appBuild":
      appBuild = reader.takeNull() ? nil : try reader.string()
    case "savedAt":
      savedAt = try reader.string()
    case "stacks":
      guard !reader.takeNull() else { return }
      var stacks: [String: [RouteRecord]] = [:]
      try reader.object { reader, name throws(Unsure) in
        var records: [RouteRecord] = []
        try reader.array { reader throws(Unsure) in
          records.append(try Self.route(&reader, unknownKeys: unknownKeys))
        }
        stacks[name] = records
      }
      self.stacks = stacks
    case "selectedTab":
      selectedTab = reader.takeNull() ? nil : try Self.route(&reader, unknownKeys: unknownKeys)
    case "sheet":
      sheet = reader.takeNull() ? nil : try Self.route(&reader, unknownKeys: unknownKeys)
    case "split":
      guard !reader.takeNull() else { return }
      var split = SplitViewSnapshot()
      try reader.object { reader, key throws(Unsure) in
        switch key {
        case "sidebar":
          split.sidebarSelection =
            reader.takeNull() ? nil : try Self.route(&reader, unknownKeys: unknownKeys)
        case "content":
          split.contentSelection =
            reader.takeNull() ? nil : try Self.route(&reader, unknownKeys: unknownKeys)
        case "columnVisibility":
          split.columnVisibility =
            reader.takeNull() ? .automatic : ColumnVisibility(rawValue: try reader.string())
        case "preferredCompactColumn":
          split.preferredCompactColumn =
            reader.takeNull() ? nil : SplitColumn(rawValue: try reader.string())
        default:
          guard unknownKeys else { throw Unsure() }
          try reader.skipValue()
        }
      }
      self.split = split
    default:
      guard unknownKeys else { throw Unsure() }
      try reader.skipValue()
    }
  }

  private static func route(_ reader: inout StrictJSONReader, unknownKeys: Bool) throws(Unsure)
    -> RouteRecord
  {
    var tag: String?
    var json: String?
    var version: Int?
    try reader.object { reader, key throws(Unsure) in
      switch key {
      case "tag": tag = try reader.string()
      case "json": json = try reader.string()
      case "version": version = reader.takeNull() ? nil : try reader.integer()
      default:
        guard unknownKeys else { throw Unsure() }
        try reader.skipValue()
      }
    }
    guard let tag, let json else { throw Unsure() }
    return RouteRecord(tag: tag, json: json, version: version ?? 1)
  }

  /// The snapshot `SceneSnapshot.init(decoding:limits:)` makes of these members, or `nil` where it
  /// throws (it then says why).
  func snapshot() -> SceneSnapshot? {
    guard let format, let savedAtText = savedAt, let savedAt = ISO8601Seconds.parse(savedAtText)
    else { return nil }
    var snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: routeSchemaVersion ?? 1, appBuild: appBuild, savedAt: savedAt),
      stacks: stacks ?? [:], selectedTab: selectedTab, split: split, sheet: sheet)
    do throws(SnapshotFormatError) {
      try snapshot.check()
    } catch {
      return nil
    }
    snapshot.formatVersion = format
    return snapshot
  }
}
