import Waypoint
import WaypointSQLite

/// Draws one scene snapshot as a tree for `waypoint show`: tabs and stacks with their routes root
/// to top, the split view's columns with their selections and visibility, and the sheet.
struct SceneTree {
  var style: Style
  /// A note after a route, or `nil` (the default): `show --manifest` notes there whether a restore
  /// keeps, migrates or drops it.
  var annotate: (RouteLocation, RouteRecord) -> String? = { _, _ in nil }

  /// The tree of `snapshot`, stored as `info`.
  func tree(_ snapshot: SceneSnapshot, info: SnapshotInfo, isLatest: Bool) -> TreeNode {
    let text = Formatting.printable
    var root = TreeNode(
      style.bold("scene \(text(info.scene))") + ", snapshot \(info.id)"
        + (isLatest ? " (latest)" : ""))
    root.children.append(
      TreeNode(
        "saved \(Formatting.date(snapshot.metadata.savedAt)) by build "
          + "\(snapshot.metadata.appBuild.map(text) ?? "unknown"), route schema "
          + "\(snapshot.metadata.routeSchemaVersion), format \(snapshot.formatVersion), "
          + Formatting.bytes(info.byteCount)))
    if let quarantine = info.quarantine {
      root.children.append(
        TreeNode(
          style.yellow(
            "quarantined (\(quarantine.kind.rawValue)) since \(Formatting.date(quarantine.since)): "
              + text(quarantine.detail))))
    }
    let detailInSplit =
      snapshot.split != nil && snapshot.stacks[SceneSnapshot.detailStackName] != nil
    let stackNames = snapshot.stacks.keys.sorted().filter {
      !(detailInSplit && $0 == SceneSnapshot.detailStackName)
    }
    if let tab = snapshot.selectedTab {
      let selectedName = Self.stringValue(tab.json)
      root.children.append(
        TreeNode(
          "tabs, selected: \(route(tab, at: .selectedTab))",
          stackNames.map { stack($0, snapshot, selected: $0 == selectedName) }))
    } else {
      root.children += stackNames.map { stack($0, snapshot, selected: false) }
    }
    if let split = snapshot.split {
      root.children.append(splitNode(split, snapshot, detailInSplit: detailInSplit))
    }
    if let sheet = snapshot.sheet {
      root.children.append(TreeNode("sheet: \(route(sheet, at: .sheet))"))
    }
    if snapshot.isEmpty {
      root.children.append(TreeNode(style.dim("nothing to restore: the scene shows its root")))
    }
    return root
  }

  private func splitNode(_ split: SplitViewSnapshot, _ snapshot: SceneSnapshot, detailInSplit: Bool)
    -> TreeNode
  {
    func name(_ value: String, known: Bool) -> String {
      known ? value : "\(Formatting.printable(value)) (unknown to this build)"
    }
    let visibility = name(split.columnVisibility.rawValue, known: split.columnVisibility.isKnown)
    let compact = split.preferredCompactColumn.map { name($0.rawValue, known: $0.isKnown) }
    var node = TreeNode(
      "split view, columns: \(visibility), preferred compact column: \(compact ?? "none")")
    node.children.append(
      TreeNode(
        "sidebar selection: \(split.sidebarSelection.map { route($0, at: .sidebarSelection) } ?? "none")"
      ))
    node.children.append(
      TreeNode(
        "content selection: \(split.contentSelection.map { route($0, at: .contentSelection) } ?? "none")"
      ))
    if detailInSplit {
      var detail = stack(SceneSnapshot.detailStackName, snapshot, selected: false)
      detail.label = "detail column, " + detail.label
      node.children.append(detail)
    }
    return node
  }

  private func stack(_ name: String, _ snapshot: SceneSnapshot, selected: Bool) -> TreeNode {
    let routes = snapshot.stacks[name] ?? []
    var label = "stack \(Formatting.printable(name))"
    if selected { label += " (selected tab)" }
    label +=
      routes.isEmpty
      ? ": empty, shows its root" : ": \(Formatting.count(routes.count, "route")), root to top"
    return TreeNode(
      label,
      routes.enumerated().map { index, record in
        TreeNode("[\(index)] " + route(record, at: .stack(name, index: index)))
      })
  }

  /// `Tag json` (`Tag@v2 json` for a version above 1), with its note.
  private func route(_ record: RouteRecord, at location: RouteLocation) -> String {
    var text = Formatting.printable(record.description)
    if let note = annotate(location, record) { text += "  " + style.dim(note) }
    return text
  }

  /// The string a route's JSON holds when it is a JSON string (a `String`-backed tab enum), so that
  /// the selected tab's stack can be marked.
  static func stringValue(_ json: String) -> String? {
    guard case .string(let value)? = try? JSONValue(parsing: json) else { return nil }
    return value
  }
}
