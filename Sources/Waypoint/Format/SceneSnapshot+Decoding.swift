import Foundation

extension SceneSnapshot {
  /// Reads a snapshot document (format specified in `Docs/SnapshotFormat.md`).
  ///
  /// Unknown keys are ignored, so a document written by a newer build of the same format version
  /// reads. Route payloads are not parsed here; they stay text until a restore.
  ///
  /// The document is read as `JSONDecoder` decodes the format's `Codable` description of it, with
  /// the same result and the same errors (`SnapshotReadingTests` compare the two): its structure
  /// first, then the members in the format's order, the first of duplicate keys winning.
  ///
  /// - Throws: ``SnapshotFormatError``: ``SnapshotFormatError/Code/tooLarge`` or
  ///   ``SnapshotFormatError/Code/nestingTooDeep`` before parsing;
  ///   ``SnapshotFormatError/Code/malformedJSON`` for text that is not JSON, naming the place;
  ///   ``SnapshotFormatError/Code/missingField`` or ``SnapshotFormatError/Code/invalidField``
  ///   for JSON of the wrong shape, naming the field; ``SnapshotFormatError/Code/newerFormat`` for a
  ///   format version above ``currentFormatVersion``.
  public init(decoding data: Data, limits: InputLimits = .default) throws(SnapshotFormatError) {
    let structure = try JSONStructure(
      scanning: data, byteLimit: limits.maxDocumentBytes, maxDepth: limits.maxNestingDepth)
    try self.init(document: structure.root, in: structure)
  }

  /// Reads the snapshot document `document` of a text already scanned (a document inside a larger
  /// JSON text, such as a line of `waypoint export`), as ``init(decoding:limits:)`` reads it; the
  /// caller applies the limits.
  package init(document: JSONStructure.Value, in structure: JSONStructure)
    throws(SnapshotFormatError)
  {
    let reader = SnapshotDocumentReader(json: structure)
    var (snapshot, savedAtText) = try reader.snapshot(document)
    guard snapshot.formatVersion >= 1 else {
      throw .invalidField("format", reason: "\(snapshot.formatVersion) is not a format version")
    }
    // What a save refuses, a read refuses: a schema or route version below 1, named by its
    // place in the document (the first in the slot walk's order); a bad date is reported after.
    try snapshot.check()
    guard let savedAt = ISO8601Seconds.parse(savedAtText) else {
      throw .invalidField("savedAt", reason: "\"\(savedAtText)\" is not an ISO 8601 date")
    }
    snapshot.metadata.savedAt = savedAt
    self = snapshot
  }
}

/// Reads a snapshot document from its ``JSONStructure`` exactly as `JSONDecoder` decodes the
/// format's `Codable` description (format 1): a keyed container reads every key of its object and
/// takes the first of duplicate keys; members are decoded in the description's order (`format`,
/// then the rest); a required member missing or `null` is ``SnapshotFormatError/Code/missingField``,
/// a member of the wrong JSON kind ``SnapshotFormatError/Code/invalidField`` in `JSONDecoder`'s
/// words; a string or a number that `JSONDecoder` refuses to read makes the whole text
/// ``SnapshotFormatError/Code/malformedJSON``, here with its place. Stacks are read in the order
/// of their names' UTF-8 bytes (`JSONDecoder` reads a dictionary in its hash order, which
/// changes from run to run).
private struct SnapshotDocumentReader {
  package let json: JSONStructure
  package typealias Value = JSONStructure.Value

  package static let documentKeys: [StaticString] = [
    "format", "routeSchemaVersion", "appBuild", "savedAt", "stacks", "selectedTab", "split",
    "sheet",
  ]
  package static let routeKeys: [StaticString] = ["tag", "json", "version"]
  package static let splitKeys: [StaticString] = [
    "sidebar", "content", "columnVisibility", "preferredCompactColumn",
  ]

  /// The snapshot, its ``SceneSnapshot/formatVersion`` the document's and its save time not set,
  /// and the text of its save time.
  package func snapshot(_ document: Value) throws(SnapshotFormatError) -> (SceneSnapshot, String) {
    let members = try keyed(document, at: DocumentPath(), keys: Self.documentKeys)
    let format = try int(members[0])
    // A newer format is not read further.
    guard format <= SceneSnapshot.currentFormatVersion else {
      throw .newerFormat(found: format, supported: SceneSnapshot.currentFormatVersion)
    }
    let routeSchemaVersion = try optionalInt(members[1])
    let appBuild = try optionalString(members[2])
    let savedAt = try string(members[3])
    var snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: routeSchemaVersion ?? 1, appBuild: appBuild,
        savedAt: Date(timeIntervalSinceReferenceDate: 0)),
      stacks: try stacks(members[4]),
      selectedTab: try optionalRoute(members[5]),
      split: try split(members[6]),
      sheet: try optionalRoute(members[7]))
    snapshot.formatVersion = format
    return (snapshot, savedAt)
  }

  // MARK: Containers

  /// Where a value stands in the document: made into a coding path only for an error, so that
  /// reading a route makes no path.
  package struct DocumentPath {
    /// The member of the document (`stacks`, `split`, …).
    package var member: StaticString?
    /// The key of the stack, within `stacks` (its name read only for an error).
    package var stack: Value?
    /// The route, within its stack.
    package var index: Int?
    /// Keys within the member or the route: `sidebar`, then `tag`.
    package var keys: (StaticString?, StaticString?) = (nil, nil)

    /// The path of the member `key` of the value here.
    package func appending(_ key: StaticString) -> DocumentPath {
      var path = self
      if member == nil {
        path.member = key
      } else if keys.0 == nil {
        path.keys.0 = key
      } else {
        path.keys.1 = key
      }
      return path
    }

    /// The coding path `JSONDecoder` gives (a stack name that reads as an integer as `[2]`) in
    /// the document `json`.
    package func codingPath(in json: JSONStructure) -> [PathKey] {
      var path: [PathKey] = []
      if let member { path.append(PathKey(member.description)) }
      if let stack { path.append(PathKey(dictionaryKey: (try? json.string(stack)) ?? "")) }
      if let index { path.append(PathKey(index: index)) }
      if let key = keys.0 { path.append(PathKey(key.description)) }
      if let key = keys.1 { path.append(PathKey(key.description)) }
      return path
    }

    /// `stacks.main[0].tag`; `document` for the document itself.
    package func dotted(in json: JSONStructure) -> String {
      let path = codingPath(in: json)
      return path.isEmpty ? "document" : CodingPathDescription.dotted(path)
    }
  }

  /// A member looked up by key: its value when present, and its path.
  package struct Member {
    package var value: Value?
    package var path: DocumentPath
  }

  /// Up to eight members of an object found by key, in the order of the keys asked for: a fixed
  /// number of places, so that reading a route allocates nothing for its members.
  package struct Keyed {
    private var values: (Value?, Value?, Value?, Value?, Value?, Value?, Value?, Value?) = (
      nil, nil, nil, nil, nil, nil, nil, nil
    )
    /// The path of the object.
    package let path: DocumentPath
    package let keys: [StaticString]

    package init(path: DocumentPath, keys: [StaticString]) {
      self.path = path
      self.keys = keys
    }

    /// The member of the `index`th key asked for.
    package subscript(index: Int) -> Member {
      Member(value: value(index), path: path.appending(keys[index]))
    }

    private func value(_ index: Int) -> Value? {
      switch index {
      case 0: values.0
      case 1: values.1
      case 2: values.2
      case 3: values.3
      case 4: values.4
      case 5: values.5
      case 6: values.6
      default: values.7
      }
    }

    /// Sets the `index`th key's value unless a member before set it (the first of duplicate keys
    /// wins).
    package mutating func setIfAbsent(_ index: Int, _ value: Value) {
      switch index {
      case 0: if values.0 == nil { values.0 = value }
      case 1: if values.1 == nil { values.1 = value }
      case 2: if values.2 == nil { values.2 = value }
      case 3: if values.3 == nil { values.3 = value }
      case 4: if values.4 == nil { values.4 = value }
      case 5: if values.5 == nil { values.5 = value }
      case 6: if values.6 == nil { values.6 = value }
      default: if values.7 == nil { values.7 = value }
      }
    }
  }

  /// The object `value` opened as a keyed container at `path`: every key read (as JSONDecoder
  /// reads all of them), the first member of each of `keys` found.
  package func keyed(_ value: Value, at path: DocumentPath, keys: [StaticString])
    throws(SnapshotFormatError) -> Keyed
  {
    try expect(value, .object, at: path)
    var found = Keyed(path: path, keys: keys)
    for (key, member) in json.members(of: value) {
      let index = try read { () throws(JSONProblem) in try json.string(key, among: keys) }
      if let index { found.setIfAbsent(index, member) }
    }
    return found
  }

  /// That `value` is of `kind`, or the error `JSONDecoder` gives at `path`: `null` is a missing
  /// value, another kind a mismatch.
  private func expect(_ value: Value, _ kind: JSONStructure.Kind, at path: DocumentPath)
    throws(SnapshotFormatError)
  {
    let found = json.kind(value)
    guard found != kind else { return }
    guard found != .null else { throw .missingField(path.dotted(in: json)) }
    let expected =
      switch kind {
      case .object: "an object"
      case .array: "an array"
      case .string: "a string"
      case .null, .bool, .number: "a number"
      }
    throw .invalidField(
      path.dotted(in: json), reason: "expected \(expected), found \(Self.words(found))")
  }

  /// What `JSONDecoder` says it found, in JSON's words.
  private static func words(_ kind: JSONStructure.Kind) -> String {
    switch kind {
    case .string: "a string"
    case .number: "number"
    case .bool: "bool"
    case .null: "null"
    case .object: "an object"
    case .array: "an array"
    }
  }

  /// `read()`'s result; a string or number that does not read makes the text malformed.
  private func read<T>(_ read: () throws(JSONProblem) -> T) throws(SnapshotFormatError) -> T {
    do {
      return try read()
    } catch {
      throw .malformedJSON(error.description)
    }
  }

  // MARK: Values

  /// A required member's value, or the error for its absence.
  private func required(_ member: Member) throws(SnapshotFormatError) -> Value {
    guard let value = member.value else { throw .missingField(member.path.dotted(in: json)) }
    return value
  }

  /// An optional member's value: `nil` when it is absent or `null`.
  private func present(_ member: Member) -> Value? {
    guard let value = member.value, json.kind(value) != .null else { return nil }
    return value
  }

  private func int(_ member: Member) throws(SnapshotFormatError) -> Int {
    try int(try required(member), at: member.path)
  }

  private func optionalInt(_ member: Member) throws(SnapshotFormatError) -> Int? {
    guard let value = present(member) else { return nil }
    return try int(value, at: member.path)
  }

  /// An `Int` as `JSONDecoder` reads it: a plain integer here, any other number by `JSONDecoder`.
  private func int(_ value: Value, at path: DocumentPath) throws(SnapshotFormatError) -> Int {
    try expect(value, .number, at: path)
    if let plain = json.plainInteger(value), let int = Int(exactly: plain) { return int }
    if let int = json.read(value, as: Int.self) { return int }
    let why =
      json.read(value, as: Double.self) != nil
      ? "the number \(json.text(value)) does not fit in Int"
      : "\(json.text(value)) is not a number JSONDecoder reads"
    throw .malformedJSON(json.problem(why, at: value).description)
  }

  private func string(_ member: Member) throws(SnapshotFormatError) -> String {
    try string(try required(member), at: member.path)
  }

  private func optionalString(_ member: Member) throws(SnapshotFormatError) -> String? {
    guard let value = present(member) else { return nil }
    return try string(value, at: member.path)
  }

  private func string(_ value: Value, at path: DocumentPath) throws(SnapshotFormatError) -> String {
    try expect(value, .string, at: path)
    return try read { () throws(JSONProblem) in try json.string(value) }
  }

  // MARK: The format's parts

  /// `stacks`: an object of arrays of routes, by stack name (the first of duplicate names), read
  /// in the order of the names' UTF-8 bytes, as the slot walk orders them.
  private func stacks(_ member: Member) throws(SnapshotFormatError) -> [String: [RouteRecord]] {
    guard let value = present(member) else { return [:] }
    try expect(value, .object, at: member.path)
    // Every name read first, as the container reads its keys; the first of equal names kept.
    var found: [String: (key: Value, records: Value)] = [:]
    found.reserveCapacity(json.count(value))
    for (key, records) in json.members(of: value) {
      let name = try read { () throws(JSONProblem) in try json.string(key) }
      if found[name] == nil { found[name] = (key, records) }
    }
    var stacks: [String: [RouteRecord]] = [:]
    stacks.reserveCapacity(found.count)
    for (name, (key, records)) in found.sorted(by: { SceneSnapshot.precedes($0.key, $1.key) }) {
      var path = member.path
      path.stack = key
      try expect(records, .array, at: path)
      var stack: [RouteRecord] = []
      stack.reserveCapacity(json.count(records))
      for (index, route) in json.elements(of: records).enumerated() {
        path.index = index
        stack.append(try self.route(route, at: path))
      }
      stacks[name] = stack
    }
    return stacks
  }

  private func optionalRoute(_ member: Member) throws(SnapshotFormatError) -> RouteRecord? {
    guard let value = present(member) else { return nil }
    return try route(value, at: member.path)
  }

  /// A route: `tag` and `json` required, `version` 1 when absent.
  private func route(_ value: Value, at path: DocumentPath) throws(SnapshotFormatError)
    -> RouteRecord
  {
    let members = try keyed(value, at: path, keys: Self.routeKeys)
    let tag = try string(members[0])
    let payload = try string(members[1])
    let version = try optionalInt(members[2])
    return RouteRecord(tag: tag, json: payload, version: version ?? 1)
  }

  /// `split`: its selections and the names of its column visibility and compact column.
  private func split(_ member: Member) throws(SnapshotFormatError) -> SplitViewSnapshot? {
    guard let value = present(member) else { return nil }
    let members = try keyed(value, at: member.path, keys: Self.splitKeys)
    let sidebar = try optionalRoute(members[0])
    let content = try optionalRoute(members[1])
    let visibility = try optionalString(members[2])
    let column = try optionalString(members[3])
    return SplitViewSnapshot(
      sidebarSelection: sidebar, contentSelection: content,
      columnVisibility: visibility.map(ColumnVisibility.init(rawValue:)) ?? .automatic,
      preferredCompactColumn: column.map(SplitColumn.init(rawValue:)))
  }
}
