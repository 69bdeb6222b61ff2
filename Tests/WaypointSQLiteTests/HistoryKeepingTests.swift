import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

/// Saves that keep the whole history (`trimsHistory: false`), and `prunable`, the dry run of
/// `prune`: what tools need so that they delete nothing they did not announce.
@Suite("Snapshot store: keeping history, and a prune's dry run")
struct HistoryKeepingTests {
  let directory = TemporaryDirectory()

  @Test("a save with trimsHistory false deletes nothing; the default still trims to the retention")
  func saveWithoutTrimming() throws {
    // No slack: every save that trims trims to the retention (the slack is SaveRulesTests').
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 3, retentionSlack: 0))
    for id in 0..<3 { try store.save(try snapshot([.item(id: id)]), scene: "A") }
    let kept = try store.save(try snapshot([.item(id: 10)]), scene: "A", trimsHistory: false)
    #expect(kept.wrote)
    #expect(try store.history(scene: "A").count == 4)
    try store.save(try snapshot([.item(id: 11)]), scene: "A")
    #expect(try store.history(scene: "A").count == 3)
  }

  @Test(
    "rollback with trimsHistory false keeps every snapshot in between", arguments: [false, true])
  func rollbackWithoutTrimming(trims: Bool) throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 3, retentionSlack: 0))
    var ids: [Int64] = []
    for id in 0..<3 {
      ids.append(try store.save(try snapshot([.item(id: id)]), scene: "A").snapshotID)
    }
    let copy = try store.rollback(scene: "A", to: ids[0], trimsHistory: trims)
    let history = try store.history(scene: "A").map(\.id)
    #expect(history == (trims ? [copy, ids[2], ids[1]] : [copy] + ids.reversed()))
  }

  /// The rules of a prune: keeping the newest n, and a cutoff day.
  static let rules: [(keep: Int?, day: Int?)] = [
    (nil, nil), (2, nil), (0, nil), (-1, nil), (nil, 3), (2, 3), (1, 6), (9, 0), (nil, 9),
  ]

  @Test("prunable names per scene exactly what prune then deletes", arguments: rules)
  func prunableMatchesPrune(keep: Int?, day: Int?) throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    // Three scenes of different depths, saved a day apart, one snapshot quarantined.
    for (scene, depth) in [("A", 8), ("B", 3), ("C", 1)] {
      for index in 0..<depth {
        try store.save(
          try snapshot(
            [.item(id: index)], savedAt: start.addingTimeInterval(Double(index) * 86_400)),
          scene: scene)
      }
    }
    _ = store.restore(scene: "C", with: Restorer(registry: RouteRegistry()))
    #expect(try store.quarantined().count == 1)
    let cutoff = day.map { start.addingTimeInterval(Double($0) * 86_400) }

    // The rules as documented, applied to the history: the date rule first, then the newest
    // `keep` of what it leaves.
    var expected: [String: Int] = [:]
    for scene in ["A", "B", "C"] {
      let history = try store.history(scene: scene)
      let young = history.filter { info in cutoff.map { info.savedAt >= $0 } ?? true }
      let count =
        (history.count - young.count) + (keep.map { max(0, young.count - max(0, $0)) } ?? 0)
      if count > 0 { expected[scene] = count }
    }
    let reader = try SnapshotStore(path: path, access: .readOnly)
    let announced = try reader.prunable(keepingLatest: keep, olderThan: cutoff)
    #expect(announced.map(\.scene) == expected.keys.sorted())
    #expect(
      Dictionary(uniqueKeysWithValues: announced.map { ($0.scene, $0.snapshots) }) == expected)
    let before = try store.statistics().snapshotCount
    #expect(try store.prune(keepingLatest: keep, olderThan: cutoff) == expected.values.reduce(0, +))
    #expect(try store.statistics().snapshotCount == before - expected.values.reduce(0, +))
    #expect(try store.prunable(keepingLatest: keep, olderThan: cutoff).isEmpty)
  }

  @Test("prunable keeps NFC and NFD spellings of a scene apart, as prune does")
  func prunableByBytes() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 100))
    for (scene, depth) in [("caf\u{E9}", 3), ("cafe\u{301}", 2)] {
      for index in 0..<depth { try store.save(try snapshot([.item(id: index)]), scene: scene) }
    }
    let announced = try store.prunable(keepingLatest: 1)
    #expect(announced.count == 2)
    #expect(announced.map(\.snapshots).sorted() == [1, 2])
    #expect(try store.prune(keepingLatest: 1) == 3)
  }
}
