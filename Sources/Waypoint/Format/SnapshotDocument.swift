import Foundation

/// The on-disk JSON shape of a snapshot, format version 1 (specified in `Docs/SnapshotFormat.md`).
///
/// Kept apart from ``SceneSnapshot`` so that the public model can change without changing the
/// format, and so that decoding can check the format version before reading anything else.
struct SnapshotDocument: Codable {
  struct Route: Codable {
    var tag: String
    var json: String
    var version: Int?
  }

  struct Split: Codable {
    var sidebar: Route?
    var content: Route?
    var columnVisibility: ColumnVisibility?
    var preferredCompactColumn: SplitColumn?
  }

  var format: Int
  var routeSchemaVersion: Int?
  var appBuild: String?
  var savedAt: String
  var stacks: [String: [Route]]?
  var selectedTab: Route?
  var split: Split?
  var sheet: Route?

  /// Thrown from inside `init(from:)` when the format is newer, so that nothing else is read.
  struct NewerFormat: Error { var found: Int }
}

extension SnapshotDocument {
  private enum CodingKeys: String, CodingKey {
    case format, routeSchemaVersion, appBuild, savedAt, stacks, selectedTab, split, sheet
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    format = try container.decode(Int.self, forKey: .format)
    guard format <= SceneSnapshot.currentFormatVersion else { throw NewerFormat(found: format) }
    routeSchemaVersion = try container.decodeIfPresent(Int.self, forKey: .routeSchemaVersion)
    appBuild = try container.decodeIfPresent(String.self, forKey: .appBuild)
    savedAt = try container.decode(String.self, forKey: .savedAt)
    stacks = try container.decodeIfPresent([String: [Route]].self, forKey: .stacks)
    selectedTab = try container.decodeIfPresent(Route.self, forKey: .selectedTab)
    split = try container.decodeIfPresent(Split.self, forKey: .split)
    sheet = try container.decodeIfPresent(Route.self, forKey: .sheet)
  }
}

extension SnapshotDocument.Route {
  init(_ record: RouteRecord) {
    self.init(
      tag: record.tag, json: record.json, version: record.version == 1 ? nil : record.version)
  }

  var record: RouteRecord { RouteRecord(tag: tag, json: json, version: version ?? 1) }
}

extension SceneSnapshot {
  /// Reads a snapshot document (format specified in `Docs/SnapshotFormat.md`).
  ///
  /// Unknown keys are ignored, so a document written by a newer build of the same format version
  /// reads. Route payloads are not parsed here; they stay text until a restore.
  ///
  /// - Throws: ``SnapshotFormatError``: ``SnapshotFormatError/Code/tooLarge`` or
  ///   ``SnapshotFormatError/Code/nestingTooDeep`` before parsing;
  ///   ``SnapshotFormatError/Code/malformedJSON`` for text that is not JSON;
  ///   ``SnapshotFormatError/Code/missingField`` or ``SnapshotFormatError/Code/invalidField``
  ///   for JSON of the wrong shape; ``SnapshotFormatError/Code/newerFormat`` for a
  ///   format version above ``currentFormatVersion``.
  public init(decoding data: Data, limits: InputLimits = .default) throws(SnapshotFormatError) {
    try limits.check(data, byteLimit: limits.maxDocumentBytes)
    let document: SnapshotDocument
    do {
      document = try JSONDecoder().decode(SnapshotDocument.self, from: data)
    } catch let newer as SnapshotDocument.NewerFormat {
      throw .newerFormat(found: newer.found, supported: Self.currentFormatVersion)
    } catch let error as DecodingError {
      throw SnapshotFormatError(error, in: data)
    } catch {
      throw .malformed(data)
    }
    guard document.format >= 1 else {
      throw .invalidField("format", reason: "\(document.format) is not a format version")
    }
    let savedAt = ISO8601Seconds.parse(document.savedAt)
    var snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: document.routeSchemaVersion ?? 1,
        appBuild: document.appBuild,
        // Replaced below: a bad date is reported after the versions.
        savedAt: savedAt ?? Date(timeIntervalSinceReferenceDate: 0)
      ),
      stacks: (document.stacks ?? [:]).mapValues { $0.map(\.record) },
      selectedTab: document.selectedTab?.record,
      split: document.split.map {
        SplitViewSnapshot(
          sidebarSelection: $0.sidebar?.record,
          contentSelection: $0.content?.record,
          columnVisibility: $0.columnVisibility ?? .automatic,
          preferredCompactColumn: $0.preferredCompactColumn
        )
      },
      sheet: document.sheet?.record
    )
    // What a save refuses, a read refuses: a schema or route version below 1, named by its
    // place in the document (the first in the slot walk's order).
    try snapshot.check()
    guard let savedAt else {
      throw .invalidField("savedAt", reason: "\"\(document.savedAt)\" is not an ISO 8601 date")
    }
    snapshot.metadata.savedAt = savedAt
    snapshot.formatVersion = document.format
    self = snapshot
  }

  /// The snapshot as a format-1 JSON document: compact, keys sorted, so equal snapshots give equal
  /// bytes. The same bytes as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` gives
  /// for the format's document, written by hand because it runs on every save; for a save time
  /// before 1582-10-15 the date is the proleptic Gregorian calendar's, as ISO 8601 says, where
  /// Foundation's formatting switches to the Julian calendar.
  public func encoded() -> Data {
    encodedLocatingSavedAt().document
  }

  /// The document ``encoded()`` writes, and where its `savedAt` date lies in it: the 20 bytes
  /// `YYYY-MM-DDTHH:MM:SSZ` between the quotes (the format writes every date at that width). Two
  /// snapshots that differ only in their save time give documents that differ only there: a
  /// store compares documents with that range masked instead of decoding either.
  package func encodedLocatingSavedAt() -> (document: Data, savedAt: Range<Int>) {
    // Room for most documents at once: growing the buffer copies what was written.
    var writer = JSONWriter(capacity: 4096)
    // Members in sorted key order, as the format specifies; written straight in that order, not
    // in slot order, which would hold the other members back until the stacks (sorted last).
    writer.beginObject()
    if let build = metadata.appBuild {
      writer.key(literal: "appBuild")
      writer.string(build)
    }
    writer.key(literal: "format")
    writer.integer(Self.currentFormatVersion)
    writer.key(literal: "routeSchemaVersion")
    writer.integer(metadata.routeSchemaVersion)
    writer.key(literal: "savedAt")
    // The date starts after the opening quote.
    let savedAtStart = writer.count + 1
    writer.date(metadata.savedAt)
    let savedAt = savedAtStart..<max(savedAtStart, writer.count - 1)
    if let selectedTab {
      writer.key(literal: "selectedTab")
      Self.write(selectedTab, to: &writer)
    }
    if let sheet {
      writer.key(literal: "sheet")
      Self.write(sheet, to: &writer)
    }
    if let split {
      writer.key(literal: "split")
      writer.beginObject()
      writer.key(literal: "columnVisibility")
      writer.string(split.columnVisibility.rawValue)
      if let content = split.contentSelection {
        writer.key(literal: "content")
        Self.write(content, to: &writer)
      }
      if let column = split.preferredCompactColumn {
        writer.key(literal: "preferredCompactColumn")
        writer.string(column.rawValue)
      }
      if let sidebar = split.sidebarSelection {
        writer.key(literal: "sidebar")
        Self.write(sidebar, to: &writer)
      }
      writer.endObject()
    }
    writer.key(literal: "stacks")
    writer.beginObject()
    // In JSONEncoder's `.sortedKeys` order: by the names' UTF-8 bytes (Swift's `<` orders some
    // non-ASCII names otherwise).
    for name in stacks.keys.sorted(by: Self.precedes) {
      writer.key(name)
      writer.beginArray()
      for record in stacks[name] ?? [] { Self.write(record, to: &writer) }
      writer.endArray()
    }
    writer.endObject()
    writer.endObject()
    return (writer.finish(), savedAt)
  }

  /// Whether `name` comes before `other` in JSONEncoder's `.sortedKeys` order (outside Apple's
  /// compatibility mode): by their UTF-8 bytes.
  package static func precedes(_ name: String, _ other: String) -> Bool {
    // Compared in place where both have contiguous bytes (native and small strings do).
    let inPlace = name.utf8.withContiguousStorageIfAvailable { mine in
      other.utf8.withContiguousStorageIfAvailable { theirs in
        let common = min(mine.count, theirs.count)
        guard common > 0, let left = mine.baseAddress, let right = theirs.baseAddress else {
          return mine.count < theirs.count
        }
        let order = memcmp(left, right, common)
        return order == 0 ? mine.count < theirs.count : order < 0
      }
    }
    if let inPlace, let inPlace { return inPlace }
    return name.utf8.lexicographicallyPrecedes(other.utf8)
  }

  /// The fixed text around a route record's strings.
  private enum RecordText {
    static let open = JSONWriter.Fragment(#"{"json":"#)
    static let tag = JSONWriter.Fragment(#","tag":"#)
    static let version = JSONWriter.Fragment(#","version":"#)
    static let close = JSONWriter.Fragment("}")
  }

  /// A route record's object, `{"json":…,"tag":…}` and `"version"` when it is not 1 (keys
  /// sorted), written as fixed fragments around the two strings.
  private static func write(_ record: RouteRecord, to writer: inout JSONWriter) {
    writer.rawValue(RecordText.open)
    writer.quoted(record.json)
    writer.raw(RecordText.tag)
    writer.quoted(record.tag)
    if record.version != 1 {
      writer.raw(RecordText.version)
      writer.digits(record.version)
    }
    writer.raw(RecordText.close)
  }

  /// The document as `JSONEncoder` writes it; ``encoded()`` must give the same bytes (tests).
  func encodedWithJSONEncoder() -> Data {
    let document = SnapshotDocument(
      format: Self.currentFormatVersion,
      routeSchemaVersion: metadata.routeSchemaVersion,
      appBuild: metadata.appBuild,
      savedAt: metadata.savedAt.formatted(.iso8601),
      stacks: stacks.mapValues { $0.map(SnapshotDocument.Route.init) },
      selectedTab: selectedTab.map(SnapshotDocument.Route.init),
      split: split.map {
        SnapshotDocument.Split(
          sidebar: $0.sidebarSelection.map(SnapshotDocument.Route.init),
          content: $0.contentSelection.map(SnapshotDocument.Route.init),
          columnVisibility: $0.columnVisibility,
          preferredCompactColumn: $0.preferredCompactColumn
        )
      },
      sheet: sheet.map(SnapshotDocument.Route.init)
    )
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(document)) ?? Data()
  }

}

extension SnapshotFormatError {
  /// Maps a `DecodingError` to the field it concerns, in the words of JSON rather than Swift's
  /// (`expected an object, found an array`). For text that is not JSON, `data` (the text that was
  /// decoded) lets the error name where it stops being JSON.
  init(_ error: DecodingError, in data: Data? = nil) {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.isEmpty ? "document" : CodingPathDescription.dotted(context.codingPath)
    }
    switch error {
    case .keyNotFound(let key, let context):
      self = .missingField(CodingPathDescription.dotted(context.codingPath + [key]))
    case .valueNotFound(_, let context):
      self = .missingField(path(context))
    case .typeMismatch(let type, let context):
      self = .invalidField(
        path(context), reason: Self.expected(type, debugDescription: context.debugDescription))
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      if let data, let problem = JSONSyntax.firstProblem(in: data) {
        self = .malformedJSON(problem.description)
      } else {
        self = .malformedJSON(Self.underlyingMessage(context))
      }
    case .dataCorrupted(let context):
      self = .invalidField(path(context), reason: context.debugDescription)
    @unknown default:
      self = .malformedJSON(String(describing: error))
    }
  }

  /// `malformedJSON` for `data` that `JSONDecoder` refused, naming where it stops being JSON.
  static func malformed(_ data: Data, otherwise reason: String = "not valid JSON")
    -> SnapshotFormatError
  {
    .malformedJSON(JSONSyntax.firstProblem(in: data)?.description ?? reason)
  }

  /// `expected an object, found an array`: the JSON kind a Swift type decodes from, and what the
  /// decoder found instead when it said so.
  static func expected(_ type: Any.Type, debugDescription: String) -> String {
    let name = String(describing: type)
    let kind: String
    if name.hasPrefix("Dictionary<") {
      kind = "an object"
    } else if name.hasPrefix("Array<") {
      kind = "an array"
    } else if name == "String" {
      kind = "a string"
    } else if name == "Bool" {
      kind = "true or false"
    } else if ["Int", "UInt", "Double", "Float", "Decimal"].contains(where: name.hasPrefix) {
      kind = "a number"
    } else {
      kind = "another kind of value"
    }
    guard let found = debugDescription.range(of: "found "),
      let instead = debugDescription.range(
        of: " instead", range: found.upperBound..<debugDescription.endIndex)
    else { return "expected \(kind)" }
    // Foundation's words for what it found, in JSON's: a dictionary is an object.
    let what = debugDescription[found.upperBound..<instead.lowerBound]
      .replacingOccurrences(of: "a dictionary", with: "an object")
    return "expected \(kind), found \(what)"
  }

  private static func underlyingMessage(_ context: DecodingError.Context) -> String {
    if let underlying = context.underlyingError {
      return "\(context.debugDescription) (\(underlying))"
    }
    return context.debugDescription
  }
}
