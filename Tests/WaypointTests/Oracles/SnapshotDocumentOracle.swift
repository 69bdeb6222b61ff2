import Foundation
import Waypoint

/// The snapshot document as Foundation reads and writes it: the format's `Codable` description,
/// decoded by `JSONDecoder` and encoded by `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`).
///
/// The oracle that Waypoint's own reader (`SceneSnapshot(decoding:limits:)`) and writer
/// (`encoded()`) are checked against, in the tests and in the fuzz targets (`Scripts/fuzz` builds
/// this file in). It is how Waypoint read and wrote documents before it had a reader and a writer of
/// its own; only the order in which a document's stacks are read is its own (by name, as the slot
/// walk orders them, where a `[String: …]` is read in its hash order, which changes from run to
/// run), so that a document with two faulty stacks has one answer.
struct SnapshotDocumentOracle: Codable {
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

  /// The stacks by name, read in the order of their names' UTF-8 bytes.
  struct Stacks: Codable {
    var routes: [String: [Route]]

    /// A stack's name, as `[String: …]` keys its members (a name that reads as an integer has it
    /// as its `intValue`, and prints as `[2]` in a coding path).
    struct Name: CodingKey {
      var stringValue: String
      var intValue: Int?

      init(stringValue: String) {
        self.stringValue = stringValue
        intValue = Int(stringValue)
      }

      init?(intValue: Int) { nil }
    }

    init(routes: [String: [Route]]) { self.routes = routes }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Name.self)
      routes = [:]
      let names = container.allKeys.sorted {
        $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8)
      }
      for name in names {
        routes[name.stringValue] = try container.decode([Route].self, forKey: name)
      }
    }

    func encode(to encoder: any Encoder) throws {
      try routes.encode(to: encoder)
    }
  }

  var format: Int
  var routeSchemaVersion: Int?
  var appBuild: String?
  var savedAt: String
  var stacks: Stacks?
  var selectedTab: Route?
  var split: Split?
  var sheet: Route?

  /// Thrown from inside `init(from:)` when the format is newer, so that nothing else is read.
  struct NewerFormat: Error { var found: Int }

  private enum CodingKeys: String, CodingKey {
    case format, routeSchemaVersion, appBuild, savedAt, stacks, selectedTab, split, sheet
  }

  init(
    format: Int, routeSchemaVersion: Int?, appBuild: String?, savedAt: String, stacks: Stacks?,
    selectedTab: Route?, split: Split?, sheet: Route?
  ) {
    self.format = format
    self.routeSchemaVersion = routeSchemaVersion
    self.appBuild = appBuild
    self.savedAt = savedAt
    self.stacks = stacks
    self.selectedTab = selectedTab
    self.split = split
    self.sheet = sheet
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    format = try container.decode(Int.self, forKey: .format)
    guard format <= SceneSnapshot.currentFormatVersion else { throw NewerFormat(found: format) }
    routeSchemaVersion = try container.decodeIfPresent(Int.self, forKey: .routeSchemaVersion)
    appBuild = try container.decodeIfPresent(String.self, forKey: .appBuild)
    savedAt = try container.decode(String.self, forKey: .savedAt)
    stacks = try container.decodeIfPresent(Stacks.self, forKey: .stacks)
    selectedTab = try container.decodeIfPresent(Route.self, forKey: .selectedTab)
    split = try container.decodeIfPresent(Split.self, forKey: .split)
    sheet = try container.decodeIfPresent(Route.self, forKey: .sheet)
  }

  /// Reads nothing: `JSONDecoder` only scans the text.
  private struct Nothing: Decodable {}

  /// The snapshot `JSONDecoder` reads from `data`, or the error it gives, within `limits`: over the
  /// size limit, nested too deep (for a text `JSONDecoder` scans), malformed, of the wrong shape.
  static func decode(_ data: Data, limits: InputLimits = .default) throws(SnapshotFormatError)
    -> SceneSnapshot
  {
    guard data.count <= limits.maxDocumentBytes else {
      throw .tooLarge(byteCount: data.count, limit: limits.maxDocumentBytes)
    }
    if (try? JSONDecoder().decode(Nothing.self, from: data)) != nil,
      nesting(of: data) > limits.maxNestingDepth
    {
      throw .nestingTooDeep(limit: limits.maxNestingDepth)
    }
    let document: SnapshotDocumentOracle
    do {
      document = try JSONDecoder().decode(SnapshotDocumentOracle.self, from: data)
    } catch let newer as NewerFormat {
      throw .newerFormat(found: newer.found, supported: SceneSnapshot.currentFormatVersion)
    } catch let error as DecodingError {
      throw SnapshotFormatError(error, in: data)
    } catch {
      throw .malformedJSON("\(error)")
    }
    guard document.format >= 1 else {
      throw .invalidField("format", reason: "\(document.format) is not a format version")
    }
    let savedAt = ISO8601Seconds.parse(document.savedAt)
    var snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: document.routeSchemaVersion ?? 1, appBuild: document.appBuild,
        savedAt: savedAt ?? Date(timeIntervalSinceReferenceDate: 0)),
      stacks: (document.stacks?.routes ?? [:]).mapValues { $0.map(\.record) },
      selectedTab: document.selectedTab?.record,
      split: document.split.map {
        SplitViewSnapshot(
          sidebarSelection: $0.sidebar?.record, contentSelection: $0.content?.record,
          columnVisibility: $0.columnVisibility ?? .automatic,
          preferredCompactColumn: $0.preferredCompactColumn)
      },
      sheet: document.sheet?.record)
    try snapshot.check()
    guard let savedAt else {
      throw .invalidField("savedAt", reason: "\"\(document.savedAt)\" is not an ISO 8601 date")
    }
    snapshot.metadata.savedAt = savedAt
    snapshot.formatVersion = document.format
    return snapshot
  }

  /// Why the reader's outcome is not the oracle's, or `nil` when they agree: equal snapshots, or
  /// errors of the same code, equal but for the words of a text that is not JSON (the reader names
  /// the place). A text both nested too deep and not JSON may be called either, whichever the
  /// scan meets first.
  static func disagreement(
    _ read: Result<SceneSnapshot, SnapshotFormatError>,
    _ oracle: Result<SceneSnapshot, SnapshotFormatError>, data: Data, limits: InputLimits = .default
  ) -> String? {
    switch (read, oracle) {
    case (.success(let mine), .success(let theirs)):
      return mine == theirs ? nil : "different snapshots: \(mine) and \(theirs)"
    case (.failure(let mine), .failure(let theirs)):
      if mine.code == .malformedJSON && theirs.code == .malformedJSON { return nil }
      if mine.code == .nestingTooDeep, theirs.code == .malformedJSON,
        nesting(of: data) > limits.maxNestingDepth
      {
        return nil
      }
      return mine == theirs ? nil : "different errors: \(mine) and \(theirs)"
    case (.success(let mine), .failure(let theirs)):
      return "read \(mine), JSONDecoder: \(theirs)"
    case (.failure(let mine), .success(let theirs)):
      return "refused (\(mine)), JSONDecoder read \(theirs)"
    }
  }

  /// How deep the arrays and objects of a JSON text nest (brackets in strings not counted).
  static func nesting(of data: Data) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return deepest
  }

  /// The document of `snapshot` as `JSONEncoder` writes it; `encoded()` must give the same bytes.
  static func encode(_ snapshot: SceneSnapshot) -> Data {
    func route(_ record: RouteRecord) -> Route {
      Route(tag: record.tag, json: record.json, version: record.version == 1 ? nil : record.version)
    }
    let document = SnapshotDocumentOracle(
      format: SceneSnapshot.currentFormatVersion,
      routeSchemaVersion: snapshot.metadata.routeSchemaVersion,
      appBuild: snapshot.metadata.appBuild,
      savedAt: snapshot.metadata.savedAt.formatted(.iso8601),
      stacks: Stacks(routes: snapshot.stacks.mapValues { $0.map(route) }),
      selectedTab: snapshot.selectedTab.map(route),
      split: snapshot.split.map {
        Split(
          sidebar: $0.sidebarSelection.map(route), content: $0.contentSelection.map(route),
          columnVisibility: $0.columnVisibility,
          preferredCompactColumn: $0.preferredCompactColumn)
      },
      sheet: snapshot.sheet.map(route))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(document)) ?? Data()
  }
}

extension SnapshotDocumentOracle.Route {
  var record: RouteRecord { RouteRecord(tag: tag, json: json, version: version ?? 1) }
}

extension SceneSnapshot {
  /// The document as `JSONEncoder` writes it (``SnapshotDocumentOracle/encode(_:)``).
  func encodedWithJSONEncoder() -> Data { SnapshotDocumentOracle.encode(self) }
}
