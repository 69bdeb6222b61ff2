import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `forEachLatestSnapshot` reads each scene's latest snapshot in one pass over the scene index
/// (`GROUP BY scene_id`) and relies on that pass's order: these tests hold it to scene order, the
/// highest id of each scene, and pages (`after`, `limit`) that add up to the whole.
@Suite("Snapshot store: streaming each scene's latest snapshot")
struct LatestSnapshotStreamTests {
  let directory = TemporaryDirectory()

  /// 40 scenes whose ids sort otherwise than they were made, saved in an interleaved order, up to
  /// four snapshots each; returns each scene's latest id, by the scene id's bytes (the store tells
  /// "É" and "E\u{301}" apart; Swift's `String` equality does not).
  func filledStore() throws -> (SnapshotStore, [[UInt8]: Int64]) {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 10))
    var latest: [[UInt8]: Int64] = [:]
    let scenes =
      (0..<40).map { "scene-\(($0 * 17) % 40)-\(String(repeating: "z", count: $0 % 3))" }
      + ["É", "E\u{301}", "a", "B"]
    for round in 0..<4 {
      for (index, scene) in scenes.enumerated() where (index + round) % 3 != 0 || round == 0 {
        let saved = try store.save(try snapshot([.item(id: round * 100 + index)]), scene: scene)
        latest[Array(scene.utf8)] = saved.snapshotID
      }
    }
    return (store, latest)
  }

  @Test("every scene once, in the store's order of scene ids, with its highest id")
  func wholeStore() throws {
    let (store, latest) = try filledStore()
    var seen: [([UInt8], Int64)] = []
    try store.forEachLatestSnapshot { stored in
      seen.append((Array(stored.info.scene.utf8), stored.info.id))
      #expect(stored.document.data != nil)
      return true
    }
    // SQLite's BINARY order: the ids' UTF-8 bytes.
    let expected = latest.keys.sorted { $0.lexicographicallyPrecedes($1) }
    #expect(seen.map(\.0) == expected)
    for (scene, id) in seen { #expect(latest[scene] == id, "\(scene)") }
  }

  @Test("pages of any size after the last scene of the page before add up to the whole")
  func pages() throws {
    let (store, _) = try filledStore()
    var whole: [Int64] = []
    try store.forEachLatestSnapshot { stored in
      whole.append(stored.info.id)
      return true
    }
    for size in [1, 3, 7, 100] {
      var paged: [Int64] = []
      var cursor: String?
      while true {
        var page: [(String, Int64)] = []
        try store.forEachLatestSnapshot(after: cursor, limit: size) { stored in
          page.append((stored.info.scene, stored.info.id))
          return true
        }
        #expect(page.count <= size)
        paged += page.map(\.1)
        guard let last = page.last else { break }
        cursor = last.0
      }
      #expect(paged == whole, "page size \(size)")
    }
  }

  @Test(
    "read in the table's order and judged on other threads, in batches of any size: the same scenes, ids and snapshots",
    arguments: [1, 2, 5, 44, 45, 1 << 20])
  func judged(batchSize: Int) throws {
    let (store, _) = try filledStore()
    var whole: [StoredSnapshot] = []
    try store.forEachLatestSnapshot { stored in
      whole.append(stored)
      return true
    }
    #expect(whole.count == 44)
    // Every third snapshot (by id) has no summary: it comes whole, read again.
    let judgedIDs = Locked<[Int64]>([])
    var seen: [(scene: [UInt8], id: Int64, document: Data?)] = []
    try store.forEachLatestSnapshot(batchSize: batchSize, judges: 2) {
      { id, document in
        judgedIDs.update { $0.append(id) }
        return id % 3 == 0 ? nil : (id: id, document: Data(document))
      }
    } _: { latest in
      switch latest {
      case .summarized(let scene, let id, let summary):
        #expect(summary.id == id)
        seen.append((Array(scene.bytes), id, summary.document))
      case .stored(let stored):
        #expect(stored.info.id % 3 == 0)
        seen.append((Array(stored.info.scene.utf8), stored.info.id, stored.document.data))
      }
      return true
    }
    #expect(seen.map(\.scene) == whole.map { Array($0.info.scene.utf8) })
    #expect(seen.map(\.id) == whole.map(\.info.id))
    // The judges got each document's bytes, as stored.
    for (item, stored) in zip(seen, whole) {
      #expect(item.document == stored.document.data)
    }
    // Each latest snapshot judged once.
    #expect(judgedIDs.value.sorted() == whole.map(\.info.id).sorted())
    // Stopping early stops.
    var count = 0
    try store.forEachLatestSnapshot(batchSize: batchSize, judges: 1) {
      { _, _ in 1 }
    } _: { _ in
      count += 1
      return count < 3
    }
    #expect(count == 3)
  }

  @Test(
    "quarantined and crash-loop snapshots are not judged; scene ids stored as other than text are grouped as SQLite groups them"
  )
  func marksAndOddSceneIDs() throws {
    let (store, _) = try filledStore()
    var latest: [StoredSnapshot] = []
    try store.forEachLatestSnapshot { stored in
      latest.append(stored)
      return true
    }
    let quarantined = latest[3].info
    let crashLoop = latest[7].info
    // Restored 3 times unconfirmed against a threshold of 2: a crash loop.
    #expect(
      rawExecute(
        store.path,
        """
        INSERT INTO snapshot_mark (snapshot_id, scene_id, quarantine, quarantine_detail, quarantined_at)
        VALUES (\(quarantined.id), '\(quarantined.scene)', 'unrestorable', 'test', 0);
        INSERT INTO snapshot_mark (snapshot_id, scene_id, unconfirmed_restores, crash_loop_threshold)
        VALUES (\(crashLoop.id), '\(crashLoop.scene)', 3, 2);
        """) == SQLITE_OK)
    // Scene ids stored as an integer, a real equal to it, a blob and the text of its bytes
    // (grouped as SQLite's GROUP BY groups them): possible once the table is no longer STRICT, as
    // in a hostile file.
    #expect(
      rawExecute(
        store.path,
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema SET sql = replace(sql, ') STRICT', ')') WHERE name = 'snapshot';
        """) == SQLITE_OK)
    #expect(
      rawExecute(
        store.path,
        """
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
        SELECT value, saved_at, format, route_schema_version, document
        FROM (SELECT * FROM snapshot ORDER BY id LIMIT 1),
          (SELECT 7 AS value UNION ALL SELECT 7.0 UNION ALL SELECT CAST('zz' AS BLOB)
           UNION ALL SELECT 'zz' UNION ALL SELECT 7);
        """) == SQLITE_OK)
    var whole: [(scene: String, id: Int64)] = []
    try store.forEachLatestSnapshot { stored in
      whole.append((stored.info.scene, stored.info.id))
      return true
    }
    #expect(whole.count > latest.count + 1)
    // The two marks joined row by row (a limit below their number) and read first.
    for (batchSize, marksInMemory) in [(1, 1 << 16), (2, 0), (3, 1), (1 << 20, 2), (1 << 20, 0)] {
      let judgedIDs = Locked<[Int64]>([])
      var seen: [(scene: String, id: Int64)] = []
      try store.forEachLatestSnapshot(batchSize: batchSize, marksInMemory: marksInMemory) {
        { id, _ in
          judgedIDs.update { $0.append(id) }
          return id
        }
      } _: { item in
        switch item {
        case .summarized(let scene, let id, let summary):
          #expect(summary == id)
          seen.append((scene.string, id))
        case .stored(let stored):
          seen.append((stored.info.scene, stored.info.id))
        }
        return true
      }
      #expect(seen.map(\.scene) == whole.map(\.scene), "batch size \(batchSize)")
      #expect(seen.map(\.id) == whole.map(\.id), "batch size \(batchSize)")
      #expect(!judgedIDs.value.contains(quarantined.id))
      #expect(!judgedIDs.value.contains(crashLoop.id))
      #expect(judgedIDs.value.count == whole.count - 2)
    }
  }

  @Test(
    "a hostile mark table (two marks of one snapshot, an id stored as text) is read as the join reads it",
    arguments: [false, true])
  func hostileMarks(textID: Bool) throws {
    let (store, _) = try filledStore()
    var latest: [StoredSnapshot] = []
    try store.forEachLatestSnapshot { stored in
      latest.append(stored)
      return true
    }
    let marked = latest[2].info
    // The table rebuilt without its key, as a hostile file may hold it: two marks of one snapshot
    // (the first unquarantined, the second quarantined), or a quarantine whose id is text that
    // `sqlite3_column_int64` reads as the snapshot's id and the join does not match with it.
    let marks =
      textID
      ? "INSERT INTO snapshot_mark (snapshot_id, scene_id, quarantine) VALUES ('\(marked.id)x', 'x', 'unrestorable');"
      : """
      INSERT INTO snapshot_mark (snapshot_id, scene_id) VALUES (\(marked.id), 'x');
      INSERT INTO snapshot_mark (snapshot_id, scene_id, quarantine)
        VALUES (\(marked.id), 'x', 'unrestorable');
      """
    #expect(
      rawExecute(
        store.path,
        """
        DROP TABLE snapshot_mark;
        CREATE TABLE snapshot_mark (snapshot_id, scene_id, unconfirmed_restores DEFAULT 0,
          quarantine, quarantine_detail, quarantined_at, crash_loop_threshold);
        \(marks)
        """) == SQLITE_OK)
    /// The ids judged and the ids given, with the marks joined or read first.
    func read(marksInMemory: Int) throws -> (judged: [Int64], seen: [Int64]) {
      let judgedIDs = Locked<[Int64]>([])
      var seen: [Int64] = []
      try store.forEachLatestSnapshot(batchSize: 1 << 20, marksInMemory: marksInMemory) {
        { id, _ in
          judgedIDs.update { $0.append(id) }
          return id
        }
      } _: { item in
        switch item {
        case .summarized(_, let id, _): seen.append(id)
        case .stored(let stored): seen.append(stored.info.id)
        }
        return true
      }
      return (judgedIDs.value.sorted(), seen)
    }
    let joined = try read(marksInMemory: 0)
    let first = try read(marksInMemory: 1 << 16)
    #expect(first.judged == joined.judged)
    #expect(first.seen == joined.seen)
    #expect(joined.seen.count == latest.count)
    // The text id is compared as the join compares it (it marks nothing); of two marks, the
    // join's first row (the unquarantined one) decides.
    #expect(joined.judged.contains(marked.id))
  }

  /// A store at `path` with a snapshot of each of `scenes`, in that order, closed so that its file
  /// holds everything; returns the snapshots' ids.
  func closedStore(_ path: String, scenes: [String]) throws -> [Int64] {
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    return try scenes.enumerated().map { index, scene in
      try store.save(try snapshot([.item(id: index)]), scene: scene).snapshotID
    }
  }

  /// Expects the judged read of `store`, in batches of any size, to give the scenes and ids
  /// ``SnapshotStore/forEachLatestSnapshot(after:limit:_:)`` gives, each judged once.
  func expectSameAsWhole(_ store: SnapshotStore, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    var whole: [(scene: String, id: Int64)] = []
    try store.forEachLatestSnapshot { stored in
      whole.append((stored.info.scene, stored.info.id))
      return true
    }
    for batchSize in [1, 2, 1 << 20] {
      let judgedIDs = Locked<[Int64]>([])
      var seen: [(scene: String, id: Int64)] = []
      try store.forEachLatestSnapshot(batchSize: batchSize, judges: 2) {
        { id, _ in
          judgedIDs.update { $0.append(id) }
          return id
        }
      } _: { item in
        switch item {
        case .summarized(let scene, let id, let summary):
          #expect(summary == id, sourceLocation: sourceLocation)
          seen.append((scene.string, id))
        case .stored(let stored):
          seen.append((stored.info.scene, stored.info.id))
        }
        return true
      }
      #expect(
        seen.map(\.scene) == whole.map(\.scene), "batch size \(batchSize)",
        sourceLocation: sourceLocation)
      #expect(
        seen.map(\.id) == whole.map(\.id), "batch size \(batchSize)", sourceLocation: sourceLocation
      )
      #expect(
        judgedIDs.value.sorted() == whole.map(\.id).sorted(), "batch size \(batchSize)",
        sourceLocation: sourceLocation)
    }
  }

  @Test(
    "scene ids that a hostile file's collation compares otherwise than byte for byte are grouped as SQLite groups them"
  )
  func collatedSceneIDs() throws {
    let path = directory.path()
    _ = try closedStore(path, scenes: ["A", "a", "A", "b", "B", "a", "c"])
    #expect(
      rawExecute(
        path,
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema
        SET sql = replace(sql, 'scene_id TEXT NOT NULL', 'scene_id TEXT NOT NULL COLLATE NOCASE')
        WHERE name = 'snapshot';
        """) == SQLITE_OK)
    // The index rebuilt in the collation's order: a consistent file, not a corrupt one.
    #expect(rawExecute(path, "REINDEX snapshot_by_scene;") == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    try expectSameAsWhole(store)
  }

  @Test("scene ids of a UTF-16 file that read as the same UTF-8 are grouped as SQLite groups them")
  func utf16SceneIDs() throws {
    let path = directory.path()
    // A file whose text is UTF-16, without a table: the store made in it keeps that encoding.
    #expect(
      rawExecute(path, "PRAGMA encoding = 'UTF-16le'; CREATE TABLE t (x); DROP TABLE t;")
        == SQLITE_OK)
    _ = try closedStore(path, scenes: ["b", "c"])
    // Lone surrogates, which SQLite converts to the same UTF-8 ("\u{10078}"): two scenes to
    // SQLite, whose ids read the same.
    #expect(
      rawExecute(
        path,
        """
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
        SELECT CAST(value AS TEXT), saved_at, format, route_schema_version, document
        FROM (SELECT * FROM snapshot ORDER BY id LIMIT 1),
          (SELECT X'00D87800' AS value UNION ALL SELECT X'00DC7800');
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    var scenes = 0
    try store.forEachLatestSnapshot { _ in
      scenes += 1
      return true
    }
    #expect(scenes == 4)
    try expectSameAsWhole(store)
  }

  @Test(
    "documents of every size, some longer than a judge's buffer (judged on the calling thread): each judged once, on its bytes"
  )
  func documentsOfEverySize() throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
      for index in 0..<40 {
        // From a few bytes to about 150 KiB: one buffer holds many, or one, or none.
        let count = [1, 300, 700, 1_500, 3_000][index % 5]
        _ = try store.save(
          try snapshot((0..<count).map { .item(id: $0 + index) }), scene: "scene-\(index % 23)")
      }
    }
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    var whole: [StoredSnapshot] = []
    try store.forEachLatestSnapshot { stored in
      whole.append(stored)
      return true
    }
    #expect(whole.contains { ($0.document.data?.count ?? 0) > 64 * 1024 })
    try expectSameAsWhole(store)
    for judges in [1, 2, 3] {
      var documents: [Data?] = []
      try store.forEachLatestSnapshot(batchSize: 7, judges: judges) {
        { _, document in Data(document) }
      } _: { item in
        if case .summarized(_, _, let document) = item { documents.append(document) }
        return true
      }
      #expect(documents == whole.map(\.document.data), "judges \(judges)")
    }
  }

  @Test(
    "more tiny documents than a judge's buffer takes (2,048): every one judged once, on its bytes")
  func manyTinyDocuments() throws {
    let path = directory.path()
    _ = try closedStore(path, scenes: ["a"])
    // 5,000 scenes whose documents are two bytes: 10 KB in all, under one buffer's 64 KiB, so
    // that only the cap on documents per buffer hands them to the judges in parts.
    #expect(
      rawExecute(
        path,
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
        SELECT printf('tiny-%05d', i), 0, 1, 1, CAST('{}' AS BLOB) FROM n;
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    try expectSameAsWhole(store)
    var judged = 0
    try store.forEachLatestSnapshot(judges: 2) {
      { _, document in String(decoding: document, as: UTF8.self) }
    } _: { item in
      if case .summarized(_, _, let document) = item, document == "{}" { judged += 1 }
      return true
    }
    #expect(judged == 5000)
  }

  @Test(
    "scenes read ahead on another thread in chunks of 1,024: stopping anywhere, with snapshots read again between, gives the whole read's first scenes"
  )
  func readAheadStops() throws {
    let path = directory.path()
    _ = try closedStore(path, scenes: ["a"])
    #expect(
      rawExecute(
        path,
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
        SELECT printf('scene-%05d-%s', (i * 7919) % 3000, substr('xxxxxxxxxxxxxxxxxxxx', 1, i % 20)),
          0, 1, 1, CAST('{}' AS BLOB)
        FROM n;
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    var whole: [(scene: String, id: Int64)] = []
    try store.forEachLatestSnapshot { stored in
      whole.append((stored.info.scene, stored.info.id))
      return true
    }
    #expect(whole.count == 3001)
    for batchSize in [1_000, 1 << 20] {
      for stop in [1, 1_023, 1_024, 1_025, 2_048, 2_500, 3_001, 4_000] {
        var seen: [(scene: String, id: Int64)] = []
        // Every third id without a summary: read again while the index is read ahead.
        try store.forEachLatestSnapshot(batchSize: batchSize, judges: 2) {
          { id, _ in id % 3 == 0 ? nil : id }
        } _: { item in
          switch item {
          case .summarized(let scene, let id, let summary):
            #expect(summary == id)
            seen.append((scene.string, id))
          case .stored(let stored):
            #expect(stored.info.id % 3 == 0)
            seen.append((stored.info.scene, stored.info.id))
          }
          return seen.count < stop
        }
        let expected = whole.prefix(stop)
        #expect(seen.count == expected.count, "batch size \(batchSize), stop \(stop)")
        #expect(
          seen.map(\.scene) == expected.map(\.scene), "batch size \(batchSize), stop \(stop)")
        #expect(seen.map(\.id) == expected.map(\.id), "batch size \(batchSize), stop \(stop)")
      }
    }
  }

  @Test(
    "ids far apart, negative and at the ends of Int64: the same scenes and ids as the whole read")
  func farApartIDs() throws {
    let path = directory.path()
    _ = try closedStore(path, scenes: ["m", "n", "o"])
    #expect(
      rawExecute(
        path,
        """
        INSERT INTO snapshot (id, scene_id, saved_at, format, route_schema_version, document)
        SELECT value, scene, saved_at, format, route_schema_version, document
        FROM (SELECT * FROM snapshot ORDER BY id LIMIT 1),
          (SELECT -9223372036854775807 - 1 AS value, 'z' AS scene
           UNION ALL SELECT -5, 'a' UNION ALL SELECT 9223372036854775807, 'b'
           UNION ALL SELECT 4611686018427387904, 'a' UNION ALL SELECT -4611686018427387904, 'c');
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    try expectSameAsWhole(store)
  }

  @Test(
    "an index out of step with its declaration (a scene's ids in descending order): the highest id, as GROUP BY finds it"
  )
  func indexOutOfOrder() throws {
    let path = directory.path()
    _ = try closedStore(path, scenes: ["a", "b", "a", "c", "b", "a"])
    // The index built with the ids descending, then declared ascending: SQLite reads it in the
    // order it was built and believes it the declared one (as in a corrupt file).
    #expect(
      rawExecute(
        path,
        """
        DROP INDEX snapshot_by_scene;
        CREATE INDEX snapshot_by_scene ON snapshot (scene_id, id DESC);
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema SET sql = replace(sql, 'id DESC', 'id') WHERE name = 'snapshot_by_scene';
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    try expectSameAsWhole(store)
  }

  @Test(
    "a snapshot whose row the read gives twice (two marks of it, in a hostile file) is judged once")
  func rowGivenTwice() throws {
    let path = directory.path()
    let ids = try closedStore(path, scenes: (0..<6).map { "scene-\($0)" })
    // The mark table's key declared a plain column: two marks of one snapshot, neither a
    // quarantine nor a restore, each joined with its row.
    #expect(
      rawExecute(
        path,
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema
        SET sql = replace(sql, 'snapshot_id INTEGER PRIMARY KEY', 'snapshot_id INTEGER')
        WHERE name = 'snapshot_mark';
        """) == SQLITE_OK)
    #expect(
      rawExecute(
        path,
        """
        INSERT INTO snapshot_mark (snapshot_id, scene_id)
        VALUES (\(ids[2]), 'scene-2'), (\(ids[2]), 'scene-2');
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    for judges in [1, 2] {
      let judgedIDs = Locked<[Int64]>([])
      var seen: [Int64] = []
      try store.forEachLatestSnapshot(judges: judges) {
        { id, _ in
          judgedIDs.update { $0.append(id) }
          return id
        }
      } _: { item in
        if case .summarized(_, let id, let summary) = item {
          #expect(summary == id)
          seen.append(id)
        }
        return true
      }
      #expect(seen == ids, "judges \(judges)")
      #expect(judgedIDs.value.sorted() == ids, "judges \(judges)")
    }
  }
}

/// The order of a batch's latest ids: by id, each with its place in scene order.
@Suite("Snapshot store: the latest ids' order")
struct LatestIDOrderTests {
  /// A reproducible stream of numbers (SplitMix64).
  struct Numbers: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  @Test(
    "by id, each with its place, for any number of ids spread near or far (packed and radix sorted, or not)",
    arguments: [1, 2, 3, 255, 256, 257, 1_000, 5_000, 70_000])
  func order(count: Int) {
    var numbers = Numbers(state: UInt64(count))
    for spread: Int64 in [Int64(count), 3 * Int64(count), 1 << 40, .max] {
      for base: Int64 in [1, -(1 << 62), .min] {
        // Distinct ids in a random scene order.
        var ids = Set<Int64>()
        while ids.count < count {
          ids.insert(base &+ Int64.random(in: 0...spread, using: &numbers))
        }
        let sceneOrder = Array(ids).shuffled(using: &numbers)
        let order = LatestIDOrder(sceneOrder: sceneOrder)
        let sorted = sceneOrder.sorted()
        #expect((0..<count).map { order.id(at: $0) } == sorted, "spread \(spread), base \(base)")
        #expect(
          (0..<count).allSatisfy { sceneOrder[order.position(at: $0)] == order.id(at: $0) },
          "spread \(spread), base \(base)")
      }
    }
  }

  @Test(
    "the radix sort sorts as a comparison sort does, repeated values included",
    arguments: [1, 11, 12, 22, 40, 63])
  func radixSort(bits: Int) {
    var numbers = Numbers(state: UInt64(bits))
    for count in [0, 1, 200, 257, 3_000, 40_000] {
      let highest = Int64.max >> (63 - bits)
      var values: [Int64] = []
      for index in 0..<count {
        // Some values repeated.
        if index % 5 == 0, index > 0 {
          values.append(Int64(index / 2) & highest)
        } else {
          values.append(Int64.random(in: 0...highest, using: &numbers))
        }
      }
      var sorted = values
      LatestIDOrder.sort(&sorted, bits: bits)
      #expect(sorted == values.sorted(), "count \(count)")
    }
  }
}

/// A value shared by threads, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  func update(_ body: (inout Value) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    body(&stored)
  }
}
