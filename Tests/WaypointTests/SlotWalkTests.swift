import Foundation
import Testing

@testable import Waypoint

@Suite("The one slot walk over a snapshot")
struct SlotWalkTests {
  static func record(_ name: String) -> RouteRecord {
    RouteRecord(tag: "App.\(name)", json: "{\"name\":\"\(name)\"}")
  }

  /// Every kind of slot, with an empty stack between two others and split-view names this build
  /// does not know.
  static let full = SceneSnapshot(
    metadata: SnapshotMetadata(routeSchemaVersion: 1),
    stacks: ["b": [record("b0"), record("b1")], "a": [], "c": [record("c0")]],
    selectedTab: record("tab"),
    split: SplitViewSnapshot(
      sidebarSelection: record("sidebar"), contentSelection: record("content"),
      columnVisibility: ColumnVisibility(rawValue: "sideways"),
      preferredCompactColumn: SplitColumn(rawValue: "middle")),
    sheet: record("sheet"))

  @Test("visits every slot once, in the fixed order, and enters every stack, an empty one too")
  func order() {
    var visited: [String] = []
    Self.full.forEachSlot(
      enteringStack: { visited.append("enter \($0)") },
      { location, slot in
        switch slot {
        case .route(let record): visited.append("\(location) \(record.tag)")
        case .columnVisibility(let value): visited.append("\(location) \(value.rawValue)")
        case .preferredCompactColumn(let column): visited.append("\(location) \(column.rawValue)")
        }
      })
    #expect(
      visited == [
        "enter a", "enter b", "stack b[0] App.b0", "stack b[1] App.b1", "enter c",
        "stack c[0] App.c0", "selected tab App.tab", "sidebar selection App.sidebar",
        "content selection App.content", "column visibility sideways",
        "preferred compact column middle", "sheet App.sheet",
      ])
    #expect(
      Self.full.routes.map(\.record.tag) == [
        "App.b0", "App.b1", "App.c0", "App.tab", "App.sidebar", "App.content", "App.sheet",
      ])
  }

  @Test("a walk that keeps every slot gives the snapshot back unchanged")
  func keepsEverything() {
    #expect(Self.full.mapSlots { _, _ in .keep } == Self.full)
    let empty = SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1))
    var visits = 0
    #expect(
      empty.mapSlots { _, _ in
        visits += 1
        return .remove
      } == empty)
    #expect(visits == 0)
  }

  @Test("removing and replacing routes uses the locations of the snapshot as it was")
  func mapsRoutes() {
    var seen: [RouteLocation] = []
    let mapped = Self.full.mapSlots { location, slot in
      seen.append(location)
      guard case .route(let record) = slot else { return .keep }
      switch location {
      case .stack("b", index: 0), .sheet, .sidebarSelection: return .remove
      case .stack("b", index: 1), .selectedTab: return .replace(Self.record(record.tag + "'"))
      default: return .keep
      }
    }
    // b[1] is visited as b[1] though b[0] was removed before it.
    #expect(seen.contains(.stack("b", index: 1)))
    #expect(mapped.stacks == ["a": [], "b": [Self.record("App.b1'")], "c": [Self.record("c0")]])
    #expect(mapped.selectedTab == Self.record("App.tab'"))
    #expect(mapped.split?.sidebarSelection == nil)
    #expect(mapped.split?.contentSelection == Self.record("content"))
    #expect(mapped.sheet == nil)
    #expect(mapped.metadata == Self.full.metadata)
    // The walk never changes the snapshot it walks.
    #expect(Self.full.stacks["b"]?.count == 2)
  }

  @Test("removing a split-view value restores its default; replacing one keeps it")
  func mapsSplitValues() {
    let removed = Self.full.mapSlots { _, slot in
      if case .route = slot { return .keep }
      return .remove
    }
    #expect(removed.split?.columnVisibility == .automatic)
    #expect(removed.split?.preferredCompactColumn == nil)
    #expect(removed.split?.sidebarSelection == Self.record("sidebar"))
    let replaced = Self.full.mapSlots { _, slot in
      if case .route = slot { return .keep }
      return .replace(Self.record("x"))
    }
    #expect(replaced == Self.full)
  }

  @Test("a document with several bad route versions names the first in the walk's order, always")
  func firstBadVersion() {
    let route = #"{"tag":"A","json":"1","version":0}"#
    let document = """
      {"format":1,"savedAt":"yesterday","sheet":\(route),"stacks":{"z":[\(route)],\
      "m":[{"tag":"A","json":"1"},\(route)],"b":[]}}
      """
    // Stack names are hashed in a new order by each process: the error must not depend on it.
    #expect(
      throws: SnapshotFormatError.invalidField(
        "stacks.m[1].version", reason: "0 is not a route version")
    ) {
      try SceneSnapshot(decoding: Data(document.utf8))
    }
    let onlyDate = #"{"format":1,"savedAt":"yesterday","stacks":{}}"#
    #expect(
      throws: SnapshotFormatError.invalidField(
        "savedAt", reason: "\"yesterday\" is not an ISO 8601 date")
    ) {
      try SceneSnapshot(decoding: Data(onlyDate.utf8))
    }
  }
}
