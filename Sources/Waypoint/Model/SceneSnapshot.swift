/// The navigation state of one scene at one moment: its stacks, selections and split-view layout.
///
/// A snapshot is plain data made of ``RouteRecord``s; it holds no app types and can be stored, copied,
/// inspected and repaired without the app. Build one from app values with ``RouteRegistry``, write it
/// with ``encoded()``, read it back with ``init(decoding:limits:)`` and turn it into app values with a
/// ``Restorer``.
public struct SceneSnapshot: Hashable, Sendable {
  /// The snapshot format version this build writes and the newest it reads.
  public static let currentFormatVersion = 1

  /// The stack name used by convention for a scene with a single `NavigationStack`.
  public static let mainStackName = "main"
  /// The stack name used by convention for the stack in a split view's detail column.
  public static let detailStackName = "detail"

  /// The format version of the document this snapshot was read from, or ``currentFormatVersion``.
  public var formatVersion: Int

  /// Build and schema information.
  public var metadata: SnapshotMetadata

  /// Navigation stacks by name, each ordered **root first** (index 0 is the screen just above the
  /// root view). One entry for a `NavigationStack`, one per tab for a `TabView`, and one for the
  /// detail column of a `NavigationSplitView`.
  public var stacks: [String: [RouteRecord]]

  /// The selected tab of a `TabView`, stored as a route so that the app's own tab type restores.
  public var selectedTab: RouteRecord?

  /// The state of a `NavigationSplitView`, if the scene has one.
  public var split: SplitViewSnapshot?

  /// The route presented as a sheet, if any.
  public var sheet: RouteRecord?

  /// Creates a snapshot. Every part but the metadata is optional.
  ///
  /// The metadata has no default: it records the route-schema version of the build the routes
  /// come from (``SnapshotMetadata/init(registry:appBuild:savedAt:)`` for the running app), and a
  /// restore refuses a snapshot whose version is newer than its own. A snapshot must never claim a
  /// version by accident.
  public init(
    metadata: SnapshotMetadata,
    stacks: [String: [RouteRecord]] = [:],
    selectedTab: RouteRecord? = nil,
    split: SplitViewSnapshot? = nil,
    sheet: RouteRecord? = nil
  ) {
    self.formatVersion = Self.currentFormatVersion
    self.metadata = metadata
    self.stacks = stacks
    self.selectedTab = selectedTab
    self.split = split
    self.sheet = sheet
  }

  /// Checks what every reader of the format refuses, so that a snapshot is never written in a form
  /// that cannot be read back: a route-schema version or a route version below 1, or a route that
  /// ``RouteRegistry/record(for:)`` could not record. The store checks every snapshot it saves.
  ///
  /// - Throws: ``SnapshotFormatError/Code/unrecordedRoute`` for the first route that could not be
  ///   recorded (its ``RouteRegistryError`` as the underlying cause), or
  ///   ``SnapshotFormatError/Code/invalidField`` naming the first impossible version.
  public func check() throws(SnapshotFormatError) {
    guard metadata.routeSchemaVersion >= 1 else {
      throw .invalidField(
        "routeSchemaVersion", reason: "\(metadata.routeSchemaVersion) is not a schema version")
    }
    // The usual case, every route sound, found without building the list of locations; the
    // first faulty route in slot order is looked for only when there is one.
    func sound(_ record: RouteRecord) -> Bool { record.failure == nil && record.version >= 1 }
    func sound(_ record: RouteRecord?) -> Bool { record.map(sound) ?? true }
    let allSound =
      stacks.values.allSatisfy { $0.allSatisfy(sound) } && sound(selectedTab) && sound(sheet)
      && split.map { sound($0.sidebarSelection) && sound($0.contentSelection) } ?? true
    if allSound { return }
    for (location, record) in routes {
      if let failure = record.failure { throw .unrecordedRoute(location.documentPath, failure) }
      guard record.version >= 1 else {
        throw .invalidField(
          "\(location.documentPath).version", reason: "\(record.version) is not a route version")
      }
    }
  }

  /// Whether the snapshot holds no navigation state at all: restoring it shows the root.
  public var isEmpty: Bool {
    stacks.values.allSatisfy(\.isEmpty) && selectedTab == nil && sheet == nil
      && split.map { $0.sidebarSelection == nil && $0.contentSelection == nil } ?? true
  }

  /// Every route of the snapshot with where it stands, in a stable order: stacks by name (each root
  /// first), then the selected tab, the split-view selections and the sheet.
  public var routes: [(location: RouteLocation, record: RouteRecord)] {
    var all: [(RouteLocation, RouteRecord)] = []
    forEachSlot { location, slot in
      if case .route(let record) = slot { all.append((location, record)) }
    }
    return all
  }
}
