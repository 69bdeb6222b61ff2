import Foundation

/// What one restore did, as a small record an app can send to its analytics: the outcome, how old
/// the snapshot was, how long the restore took, and per kind of dropped or migrated route its
/// place, tag, reason and migration. Never a scene id, a route's JSON, a URL or any value.
///
/// One line of JSON (``jsonLine``, at most ``maxBytes`` bytes whatever the report holds) with the
/// schema of Docs/Outcomes.md, so that `waypoint outcomes summarize` and an analytics engine read
/// the records of every device alike. Tags are the app's own type names; ``Options/tag`` maps or
/// hashes them first.
///
/// ```swift
/// navigator.onEvent = { event in
///   if case .restoredOutcome(let outcome) = event { analytics.send(outcome.jsonLine) }
/// }
/// ```
public struct RestoreOutcome: Equatable, Sendable {
  /// The format this build writes (the record's `format`); readers refuse a newer one.
  public static let currentFormat = 1
  /// The most bytes a record's ``jsonLine`` takes.
  public static let maxBytes = 2048
  /// The most UTF-8 bytes of a tag, a stack name or an app build in a record; longer ones are cut
  /// at a character and end in `…`.
  public static let maxNameBytes = 100

  /// What becomes of names in a record.
  public struct Options: Sendable {
    /// Maps each tag before it is written (to hash or shorten the app's type names); the default
    /// keeps them.
    public var tag: @Sendable (String) -> String
    /// Whether a stack's name is written with its items (`false`: only the kind, `stack`).
    public var includesStackNames: Bool

    /// Options; by default tags are kept and stack names left out.
    public init(
      tag: @escaping @Sendable (String) -> String = { $0 }, includesStackNames: Bool = false
    ) {
      self.tag = tag
      self.includesStackNames = includesStackNames
    }
  }

  /// Where a dropped or migrated route stood, by kind.
  public enum LocationKind: String, Hashable, Sendable, CaseIterable {
    /// A navigation stack.
    case stack
    /// The selected tab.
    case tab
    /// A split view's selection, column visibility or preferred compact column.
    case split
    /// The presented sheet.
    case sheet
    /// The snapshot as a whole (unreadable, newer, set aside by the crash-loop guard).
    case snapshot
  }

  /// Whether the crash-loop guard took part in the restore.
  public enum CrashLoop: String, Hashable, Sendable, CaseIterable {
    /// It did not.
    case none
    /// The latest snapshot was set aside as a crash loop: the restore went past it.
    case setAside
  }

  /// One kind of dropped or migrated route, with how many the restore had.
  public struct Item: Equatable, Sendable {
    /// `dropped` (with a ``reason``) or `migrated` (with ``fromVersion`` and ``toVersion``).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
      /// The route (or value, or snapshot) was left out.
      case dropped
      /// The route came back through migrations.
      case migrated
    }

    /// Dropped or migrated.
    public var kind: Kind
    /// Where it stood.
    public var location: LocationKind
    /// The stack's name, with ``Options/includesStackNames``; otherwise `nil`.
    public var stack: String?
    /// The route's tag, mapped by ``Options/tag``; `nil` for split-view values and the snapshot.
    public var tag: String?
    /// For a migrated route saved under another tag (an alias), that tag, mapped.
    public var fromTag: String?
    /// For a dropped item, the reason's code (``DropReason/Code``).
    public var reason: String?
    /// For a migrated route, the version it was stored with.
    public var fromVersion: Int?
    /// For a migrated route, the version it was migrated to.
    public var toVersion: Int?
    /// How many items of the restore share all of the above.
    public var count: Int

    /// An item; `count` is at least 1.
    public init(
      kind: Kind, location: LocationKind, stack: String? = nil, tag: String?,
      fromTag: String? = nil, reason: String? = nil, fromVersion: Int? = nil,
      toVersion: Int? = nil, count: Int = 1
    ) {
      self.kind = kind
      self.location = location
      self.stack = stack
      self.tag = tag
      self.fromTag = fromTag
      self.reason = reason
      self.fromVersion = fromVersion
      self.toVersion = toVersion
      self.count = max(1, count)
    }
  }

  /// The record's format, ``currentFormat`` for records this build makes.
  public var format: Int
  /// The restoring app's build (`NavigatorConfiguration.appBuild`), cut to ``maxNameBytes``.
  public var appBuild: String?
  /// The restoring registry's route schema version.
  public var routeSchemaVersion: Int
  /// The route schema version of the snapshot restored; `nil` when none could be read.
  public var storedRouteSchemaVersion: Int?
  /// Restored, partial or root.
  public var outcome: RestoreReport.Outcome
  /// Whole hours from the snapshot's save to the restore (0 for a snapshot from the future);
  /// `nil` when there was no readable snapshot.
  public var snapshotAgeHours: Int?
  /// How long the restore took, in microseconds.
  public var durationMicroseconds: Int
  /// Whether the crash-loop guard set the latest snapshot aside.
  public var crashLoop: CrashLoop
  /// The kinds of dropped and migrated routes, in the order the restore met them.
  public var items: [Item]
  /// Items left out of ``items`` to keep the record within ``maxBytes`` (counted, not named).
  public var omittedItems: Int

  /// The largest count, age or version a record may hold (10^12): beyond it a number is not a
  /// restore's but a broken or hostile sender's, and sums of millions of them would overflow. A
  /// record made from a restore holds its numbers within it (a stored document's
  /// `routeSchemaVersion` of `Int.max` is written as this), so that every record an app writes
  /// reads back.
  public static let maxCount = 1_000_000_000_000

  /// `number` within `0...maxCount`.
  private static func bounded(_ number: Int) -> Int { min(max(number, 0), maxCount) }

  /// The record of a restore.
  ///
  /// Its versions and counts are held within 0 to ``maxCount``.
  ///
  /// - Parameters:
  ///   - scene: What the restore brought back, with its report.
  ///   - appBuild: The restoring app's build.
  ///   - routeSchemaVersion: The restoring registry's ``RouteRegistry/schemaVersion``.
  ///   - restoredAt: When the restore ran (the snapshot's age is counted to it).
  ///   - duration: How long it took.
  ///   - crashLoop: Whether the crash-loop guard set the latest snapshot aside.
  ///   - options: What becomes of tags and stack names.
  public init(
    _ scene: RestoredScene, appBuild: String?, routeSchemaVersion: Int, restoredAt: Date,
    duration: Duration, crashLoop: CrashLoop = .none, options: Options = Options()
  ) {
    format = Self.currentFormat
    self.appBuild = appBuild.map(Self.cut)
    self.routeSchemaVersion = Self.bounded(routeSchemaVersion)
    storedRouteSchemaVersion = scene.metadata.map { Self.bounded($0.routeSchemaVersion) }
    outcome = scene.report.outcome
    snapshotAgeHours = scene.metadata.map { metadata in
      let hours = restoredAt.timeIntervalSince(metadata.savedAt) / 3600
      return hours.isFinite ? Int(min(max(hours, 0), 1_000_000_000).rounded(.down)) : 0
    }
    let components = duration.components
    durationMicroseconds =
      components.seconds > 1_000_000_000
      ? Int.max / 2
      : Int(max(0, components.seconds)) * 1_000_000
        + Int(max(0, components.attoseconds) / 1_000_000_000_000)
    self.crashLoop = crashLoop
    items = []
    omittedItems = 0

    var groups: [Item] = []
    // Each kind by its fields, each written with its length (or `-` when absent), so that no two
    // kinds share a key whatever their names hold.
    var index: [String: Int] = [:]
    func add(_ item: Item) {
      let fields: [String?] = [
        item.kind.rawValue, item.location.rawValue, item.stack, item.tag, item.fromTag,
        item.reason, item.fromVersion.map(String.init), item.toVersion.map(String.init),
      ]
      let key = fields.map { field in field.map { "\($0.utf8.count):\($0)" } ?? "-" }.joined()
      if let at = index[key] {
        groups[at].count = min(groups[at].count, Self.maxCount - 1) + 1
      } else {
        index[key] = groups.count
        groups.append(item)
      }
    }
    func name(_ tag: String?) -> String? { tag.map { Self.cut(options.tag($0)) } }
    for dropped in scene.report.dropped {
      let (kind, stack) = Self.kind(of: dropped.location)
      add(
        Item(
          kind: .dropped, location: kind,
          stack: options.includesStackNames ? stack.map(Self.cut) : nil, tag: name(dropped.tag),
          reason: Self.cut(dropped.reason.code.rawValue)))
    }
    func migrated(_ route: RestoredRoute?, _ location: RouteLocation) {
      guard let route, route.wasMigrated else { return }
      let (kind, stack) = Self.kind(of: location)
      let tag = name(route.record.tag)
      let stored = name(route.storedRecord.tag)
      add(
        Item(
          kind: .migrated, location: kind,
          stack: options.includesStackNames ? stack.map(Self.cut) : nil, tag: tag,
          fromTag: stored == tag ? nil : stored,
          fromVersion: Self.bounded(route.storedRecord.version),
          toVersion: Self.bounded(route.record.version)))
    }
    for name in Array(scene.stacks.keys).sorted() {
      for (offset, route) in scene.stacks[name, default: []].enumerated() {
        migrated(route, .stack(name, index: offset))
      }
    }
    migrated(scene.selectedTab, .selectedTab)
    migrated(scene.sidebarSelection, .sidebarSelection)
    migrated(scene.contentSelection, .contentSelection)
    migrated(scene.sheet, .sheet)

    // Items are kept while the record stays within its bound; the rest are counted.
    var size = jsonLine.count
    for group in groups {
      let added = Self.itemBytes(group) + (items.isEmpty ? 0 : 1)
      // Room for the largest count of omitted items: 19 digits.
      if size + added + 19 <= Self.maxBytes {
        items.append(group)
        size += added
      } else {
        omittedItems = min(omittedItems, Self.maxCount - group.count) + group.count
      }
    }
  }

  /// A record with every field given (tests, tools).
  public init(
    format: Int = RestoreOutcome.currentFormat, appBuild: String?, routeSchemaVersion: Int,
    storedRouteSchemaVersion: Int?, outcome: RestoreReport.Outcome, snapshotAgeHours: Int?,
    durationMicroseconds: Int, crashLoop: CrashLoop, items: [Item], omittedItems: Int = 0
  ) {
    self.format = format
    self.appBuild = appBuild
    self.routeSchemaVersion = routeSchemaVersion
    self.storedRouteSchemaVersion = storedRouteSchemaVersion
    self.outcome = outcome
    self.snapshotAgeHours = snapshotAgeHours
    self.durationMicroseconds = durationMicroseconds
    self.crashLoop = crashLoop
    self.items = items
    self.omittedItems = omittedItems
  }

  /// The record as one line of JSON (no newline), its keys in a fixed order: the schema of
  /// Docs/Outcomes.md.
  public var jsonLine: Data {
    var writer = JSONWriter(capacity: 256)
    writer.beginObject()
    writer.key(literal: "format")
    writer.integer(format)
    writer.key(literal: "appBuild")
    Self.optional(appBuild, &writer)
    writer.key(literal: "routeSchemaVersion")
    writer.integer(routeSchemaVersion)
    writer.key(literal: "storedRouteSchemaVersion")
    Self.optional(storedRouteSchemaVersion, &writer)
    writer.key(literal: "outcome")
    writer.string(outcome.rawValue)
    writer.key(literal: "snapshotAgeHours")
    Self.optional(snapshotAgeHours, &writer)
    writer.key(literal: "durationMicroseconds")
    writer.integer(durationMicroseconds)
    writer.key(literal: "crashLoop")
    writer.string(crashLoop.rawValue)
    writer.key(literal: "items")
    writer.beginArray()
    for item in items { Self.write(item, &writer) }
    writer.endArray()
    writer.key(literal: "omittedItems")
    writer.integer(omittedItems)
    writer.endObject()
    return writer.finish()
  }

  private static func write(_ item: Item, _ writer: inout JSONWriter) {
    writer.beginObject()
    writer.key(literal: "kind")
    writer.string(item.kind.rawValue)
    writer.key(literal: "location")
    writer.string(item.location.rawValue)
    writer.key(literal: "stack")
    optional(item.stack, &writer)
    writer.key(literal: "tag")
    optional(item.tag, &writer)
    writer.key(literal: "fromTag")
    optional(item.fromTag, &writer)
    writer.key(literal: "reason")
    optional(item.reason, &writer)
    writer.key(literal: "fromVersion")
    optional(item.fromVersion, &writer)
    writer.key(literal: "toVersion")
    optional(item.toVersion, &writer)
    writer.key(literal: "count")
    writer.integer(item.count)
    writer.endObject()
  }

  /// The bytes `item` takes in a record.
  private static func itemBytes(_ item: Item) -> Int {
    var writer = JSONWriter(capacity: 256)
    writer.beginArray()
    write(item, &writer)
    writer.endArray()
    return writer.finish().count - 2
  }

  private static func optional(_ value: String?, _ writer: inout JSONWriter) {
    if let value { writer.string(value) } else { writer.rawValue(JSONWriter.Fragment("null")) }
  }

  private static func optional(_ value: Int?, _ writer: inout JSONWriter) {
    if let value { writer.integer(value) } else { writer.rawValue(JSONWriter.Fragment("null")) }
  }

  /// `text` within ``maxNameBytes`` UTF-8 bytes, cut at a character and ended with `…`.
  static func cut(_ text: String) -> String {
    guard text.utf8.count > maxNameBytes else { return text }
    var kept = ""
    var bytes = 0
    for character in text {
      let size = character.utf8.count
      // Room for the three bytes of `…`.
      guard bytes + size <= maxNameBytes - 3 else { break }
      kept.append(character)
      bytes += size
    }
    return kept + "…"
  }

  /// The kind of `location`, and its stack's name for a stack.
  private static func kind(of location: RouteLocation) -> (LocationKind, String?) {
    switch location {
    case .stack(let name, _): (.stack, name)
    case .selectedTab: (.tab, nil)
    case .sidebarSelection, .contentSelection, .columnVisibility, .preferredCompactColumn:
      (.split, nil)
    case .sheet: (.sheet, nil)
    case .snapshot: (.snapshot, nil)
    }
  }
}
