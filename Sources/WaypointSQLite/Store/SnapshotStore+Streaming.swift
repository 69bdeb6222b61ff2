import Foundation
import Waypoint

extension SnapshotStore {
  /// Calls `body` with every stored snapshot, oldest id first, one at a time, in one read
  /// transaction, so that memory stays the same however many snapshots the store holds (tools that
  /// export or count a whole store).
  ///
  /// A document over the configuration's `limits.maxDocumentBytes` is not read into memory: `body`
  /// gets it as ``StoredSnapshot/Document/tooLarge(byteCount:limit:)``.
  /// `body` returns `false` to stop early. It runs while the store's lock is held, so it must not
  /// call the store.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read; the snapshots already passed to `body`
  ///   stay passed.
  package func forEachSnapshot(_ body: (StoredSnapshot) -> Bool) throws(StoreError) {
    try stream(
      """
      SELECT \(infoColumns), \(marks.document(within: "?1"))
      FROM snapshot s\(marks.join) ORDER BY s.id
      """, [], body)
  }

  /// Calls `body` with the latest snapshot of every scene, by scene id, one at a time, in one read
  /// transaction, with constant memory (tools that validate or repair a whole store). Documents over
  /// the size limit come without their bytes (``StoredSnapshot/Document/tooLarge(byteCount:limit:)``), as in ``forEachSnapshot(_:)``. `body` returns `false`
  /// to stop early and must not call the store.
  ///
  /// - Parameters:
  ///   - scene: Start after this scene id (by the store's ordering of ids), to go through a store in
  ///     batches between which the caller may write.
  ///   - limit: At most this many scenes.
  ///   - body: Called with each snapshot; returns `false` to stop early.
  /// - Throws: ``StoreError`` when the store cannot be read.
  package func forEachLatestSnapshot(
    after scene: String? = nil, limit: Int = .max, _ body: (StoredSnapshot) -> Bool
  ) throws(StoreError) {
    // One pass over the index on (scene_id, id), which GROUP BY reads in order, taking each
    // scene's last entry, then each row by its id: not a lookup of the scene's latest id for every
    // row of the table. CROSS JOIN keeps that pass the outer loop, so the rows come out in its
    // order, by scene id, without sorting them (an ORDER BY here would sort the documents too).
    try stream(
      """
      SELECT \(infoColumns), \(marks.document(within: "?1"))
      FROM (
        SELECT scene_id, max(id) AS id FROM snapshot
        WHERE ?2 IS NULL OR scene_id > ?2
        GROUP BY scene_id ORDER BY scene_id LIMIT ?3
      ) latest
      CROSS JOIN snapshot s ON s.id = latest.id\(marks.join)
      """, [.text(scene), .integer(Int64(max(0, limit)))], body)
  }

  /// Runs a query of snapshot rows (info columns, then the document or NULL when it is over the size
  /// limit, bound as `?1`; `bindings` follow as `?2`, …) in one read transaction, passing each row to
  /// `body` until it returns `false`.
  private func stream(_ sql: String, _ bindings: [SQLValue], _ body: (StoredSnapshot) -> Bool)
    throws(StoreError)
  {
    let limit = configuration.limits.maxDocumentBytes
    try read { db throws(SQLiteError) in
      try db.query(sql, [.integer(Int64(limit))] + bindings) { row throws(SQLiteError) in
        body(Self.storedSnapshot(&row, limits: configuration.limits)) ? .continue : .stop
      }
    }
  }
}

/// A scene's latest snapshot as
/// ``SnapshotStore/forEachLatestSnapshot(batchSize:judges:marksInMemory:judging:_:)`` passes it:
/// the summary a judge made of it, or the snapshot itself when there is none.
@usableFromInline
package enum LatestSnapshot<Summary> {
  /// The scene, its latest snapshot's id and the summary made of that snapshot. The scene id's
  /// bytes are valid only during the call that gets them.
  case summarized(scene: SceneIDBytes, id: Int64, Summary)
  /// The latest snapshot, for which no summary was made.
  case stored(StoredSnapshot)
}

/// A scene id as the index read gave it: its bytes (the text of what is stored, as SQLite converts
/// it), valid only during the call that gets them, so that a tool writing a line a scene makes no
/// `String` of the usual id.
@usableFromInline
package struct SceneIDBytes {
  /// The bytes, valid only during the call that gets them.
  package let bytes: UnsafeRawBufferPointer

  /// The bytes as a `String`, invalid UTF-8 repaired (as ``StoredSnapshot``'s scene id is read).
  package var string: String { String(decoding: bytes, as: UTF8.self) }

  @usableFromInline
  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
}

extension SnapshotStore {
  /// Calls `body` with the latest snapshot of every scene, by scene id, in one read transaction, as
  /// ``forEachLatestSnapshot(after:limit:_:)`` does, but reads the documents in the table's order
  /// and has them judged on other threads while it reads: on a big store, rows read in the order of
  /// scene ids are pages read at random, a page read (a system call, or a disk seek when the file is
  /// not cached) per scene.
  ///
  /// The scenes go in batches of at most `batchSize`: the batch's scenes and their latest snapshot
  /// ids are read from the index on (scene_id, id); the table is read once in id order, and the
  /// document of each of those snapshots that a restore reads (not quarantined, not a crash loop,
  /// its stored bytes within the size limit) goes to a judge as it is stored, in its stored form
  /// (`StoredDocument`: a judge that answers must read it so), which makes a summary of it, or
  /// `nil`. The judges run
  /// on `judges` threads (at least one), each with its own judge that `makeJudge` makes on that
  /// thread. Then `body` gets the batch's scenes in scene-id order, each as its summary or, where
  /// there is none, as the snapshot read again, while another thread reads the index ahead.
  /// Memory: 12 bytes a scene of a batch (16 while its ids are sorted), the documents waiting for
  /// a judge (4 × `judges` buffers of 64 KiB and at most 2,048 documents each; a longer document
  /// is judged on the calling thread) and the scenes read ahead (3 chunks of at most 1,024).
  /// `body` returns `false` to stop early; neither it nor a judge may call the store.
  ///
  /// The table is read without its marks when there are at most `marksInMemory` of them: they are
  /// read first and looked up by id (about 40 bytes each); otherwise each row is joined with its
  /// mark. The answers are the same.
  ///
  /// Inlined into the caller, so that the calls a scene are made for its summary type (the stream
  /// itself is
  /// ``forEachLatestSnapshot(batchSize:judges:marksInMemory:judging:starting:summarized:stored:)``).
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  @inlinable
  package func forEachLatestSnapshot<Summary: Sendable>(
    batchSize: Int = 1 << 20,
    judges: Int = ProcessInfo.processInfo.activeProcessorCount,
    marksInMemory: Int = 1 << 16,
    judging makeJudge:
      @escaping @Sendable () -> (
        _ id: Int64, _ document: UnsafeRawBufferPointer
      ) -> Summary?,
    _ body: (LatestSnapshot<Summary>) -> Bool
  ) throws(StoreError) {
    let summaries = LatestSummaries<Summary>()
    try forEachLatestSnapshot(
      batchSize: batchSize, judges: judges, marksInMemory: marksInMemory,
      judging: {
        let judge = makeJudge()
        return { place, id, document in summaries.set(judge(id, document), at: place) }
      },
      starting: { summaries.start(count: $0) },
      summarized: { place, scene, id in
        guard let summary = summaries[place] else { return nil }
        return body(.summarized(scene: scene, id: id, summary))
      },
      stored: { body(.stored($0)) })
  }

  /// The stream behind ``forEachLatestSnapshot(batchSize:judges:marksInMemory:judging:_:)``,
  /// without a summary type: each batch of `count` scenes starts with `starting(count)`; a judge (made by
  /// `makeJudge` on its thread) gets each judged document with its scene's place in the batch
  /// (0 to `count - 1`, in scene order) and keeps what it makes of it at that place; then
  /// `summarized` gets each scene of the batch in order, with its place, and answers `nil` when
  /// nothing was made at that place (the scene then goes to `stored`, read again), or whether to
  /// go on. `marksInMemory`: as
  /// ``forEachLatestSnapshot(batchSize:judges:marksInMemory:judging:_:)`` says.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  @usableFromInline
  func forEachLatestSnapshot(
    batchSize: Int,
    judges: Int,
    marksInMemory: Int = 1 << 16,
    judging makeJudge:
      @escaping @Sendable () -> (
        _ place: Int, _ id: Int64, _ document: UnsafeRawBufferPointer
      ) -> Void,
    starting: (_ count: Int) -> Void,
    summarized: (_ place: Int, _ scene: SceneIDBytes, _ id: Int64) -> Bool?,
    stored: (StoredSnapshot) -> Bool
  ) throws(StoreError) {
    let limit = configuration.limits.maxDocumentBytes
    // At most 2^30 scenes a batch: a place in a batch fits 32 bits.
    let batch = min(max(1, batchSize), 1 << 30)
    let judges = min(max(1, judges), 16)
    let joined = """
      SELECT s.id, \(marks.quarantine), \(marks.unconfirmedRestores), \(marks.crashLoopThreshold),
        CASE WHEN length(s.document) <= ?1 THEN s.document END
      FROM snapshot s\(marks.join) WHERE s.id BETWEEN ?2 AND ?3 ORDER BY s.id
      """
    // The table pass without the join, its marks looked up in memory.
    let unjoined = """
      SELECT s.id, CASE WHEN length(s.document) <= ?1 THEN s.document END
      FROM snapshot s WHERE s.id BETWEEN ?2 AND ?3 ORDER BY s.id
      """
    let one = """
      SELECT \(infoColumns), CASE WHEN length(s.document) <= ?1 THEN s.document END
      FROM snapshot s\(marks.join) WHERE s.id = ?2
      """
    try read { db throws(SQLiteError) in
      // Two reads of the index in scene order, each going on where it stopped: the first gives
      // each batch's latest ids, the second its scenes again, in the same order (one read
      // transaction). Grouped here by the scene id's bytes when every scene id is stored as text
      // (the lowest and the highest are: the index orders NULL, then numbers, text and blobs) in
      // a UTF-8 file whose table declares no collation; otherwise by SQLite's GROUP BY, which
      // groups other values its own way.
      let plain = try Self.sceneIDsAreText(db)
      // The marks in memory, or `nil`: the table pass joins them.
      let marksRead = try self.marksInMemory(db, limit: marksInMemory)
      var ids = try LatestSceneCursor(db, plain: plain, second: false)
      let scenes = SceneReadAhead(try LatestSceneCursor(db, plain: plain, second: true))
      defer {
        ids.close()
        scenes.close()
      }
      while true {
        // The batch's latest ids, in scene order.
        var latest: [Int64] = []
        try ids.next(limit: batch) { _, id in
          latest.append(id)
          return true
        }
        guard !latest.isEmpty else { return }
        let count = latest.count
        let order = LatestIDOrder(sceneOrder: consume latest)
        starting(count)
        // Their documents, in the table's order, judged on the judges' threads.
        let pool = JudgePool(judges: judges, makeJudge)
        do {
          defer { pool.finish() }
          var next = 0
          try db.query(
            marksRead == nil ? joined : unjoined,
            [.integer(Int64(limit)), .integer(order.id(at: 0)), .integer(order.id(at: count - 1))]
          ) { row throws(SQLiteError) in
            let id = row.int64()
            while next < count, order.id(at: next) < id { next += 1 }
            guard next < count else { return .stop }
            guard order.id(at: next) == id else { return .continue }
            // Each place judged once, by one judge: a row the query gives twice (a hostile file's
            // mark table holding two marks of one snapshot) is not judged again at that place.
            let position = order.position(at: next)
            next += 1
            let mark: ReadMark?
            if let marksRead {
              mark = marksRead.isEmpty ? nil : marksRead[id]
            } else {
              mark = ReadMark(&row)
            }
            if let mark {
              guard mark.quarantine == nil,
                !mark.rule.isCrashLoop(
                  quarantine: nil, unconfirmedRestores: mark.unconfirmedRestores)
              else { return .continue }
            }
            guard let document = row.blobBytes() else { return .continue }
            pool.judge(position: position, id: id, document: document)
            return .continue
          }
        }
        // The scenes in order: the index read on another thread while the scenes already read
        // go to `summarized` (on a big store, about half of this pass each).
        var position = 0
        var stopped = false
        try scenes.read(count: count) { scene, id throws(SQLiteError) in
          defer { position += 1 }
          if position < count, let goOn = summarized(position, SceneIDBytes(scene), id) {
            stopped = !goOn
          } else if let item = try scenes.holdingConnection({ () throws(SQLiteError) in
            try db.scalar(
              one, [.integer(Int64(limit)), .integer(id)],
              { row in Self.storedSnapshot(&row, limits: configuration.limits) })
          }) {
            stopped = !stored(item)
          }
          return !stopped
        }
        guard !stopped, count == batch else { return }
      }
    }
  }

  /// Every mark of the store by its snapshot's id, when the store keeps them apart (schema 3 on)
  /// and holds at most `limit`, one a snapshot, each known by an integer; `nil` otherwise (a
  /// hostile file's mark table may hold two of one snapshot, which the join gives as two rows, or
  /// an id of another type, which the join compares its own way), and the table pass joins them.
  private func marksInMemory(_ db: Database, limit: Int) throws(SQLiteError) -> [Int64: ReadMark]? {
    guard marks.separate,
      let count = try db.scalar(
        """
        SELECT CASE WHEN count(*) = count(CASE WHEN typeof(snapshot_id) = 'integer' THEN 1 END)
          THEN count(*) ELSE -1 END
        FROM snapshot_mark
        """, [], { $0.int64() }),
      count >= 0, count <= Int64(limit)
    else { return nil }
    var read: [Int64: ReadMark] = [:]
    var repeated = false
    try db.query(
      """
      SELECT snapshot_id, quarantine, coalesce(unconfirmed_restores, 0), \(marks.crashLoopThreshold)
      FROM snapshot_mark m
      """
    ) { row throws(SQLiteError) in
      let id = row.int64()
      guard read.updateValue(ReadMark(&row), forKey: id) == nil else {
        repeated = true
        return .stop
      }
      return .continue
    }
    return repeated ? nil : read
  }

  /// Whether every scene id is stored as text (or there are none): the lowest and the highest in
  /// the index's order are; and whether SQLite tells two of them apart exactly when their bytes as
  /// read differ: the file's text is UTF-8 (read as it is stored; UTF-16 text is converted, and
  /// invalid UTF-16 that differs can convert to the same bytes), and the table declares no
  /// collation (a hostile file's `COLLATE NOCASE` groups ids whose bytes differ).
  private static func sceneIDsAreText(_ db: Database) throws(SQLiteError) -> Bool {
    guard try db.scalar("PRAGMA encoding", [], { $0.text() ?? "" }) == "UTF-8",
      try db.scalar(
        """
        SELECT coalesce(sql LIKE '%collate%', 1) FROM sqlite_schema
        WHERE type = 'table' AND name = 'snapshot'
        """, [], { $0.int64() }) == 0
    else { return false }
    for sql in [
      "SELECT typeof(scene_id) = 'text' FROM snapshot ORDER BY scene_id LIMIT 1",
      "SELECT typeof(scene_id) = 'text' FROM snapshot ORDER BY scene_id DESC LIMIT 1",
    ] {
      guard try db.scalar(sql, [], { $0.int64() }) ?? 1 == 1 else { return false }
    }
    return true
  }
}

/// A snapshot's mark as the table pass reads it: what decides whether a restore reads the snapshot.
private struct ReadMark {
  var quarantine: Quarantine.Kind?
  var unconfirmedRestores: Int
  var rule: CrashLoopRule

  /// The mark in the row's next three columns: quarantine, unconfirmed restores, crash-loop
  /// threshold. As `SnapshotInfo` reads the marks: a quarantine of an unknown kind is none.
  init(_ row: inout Row) {
    quarantine = row.text().flatMap(Quarantine.Kind.init(rawValue:))
    unconfirmedRestores = row.int()
    rule =
      row.optionalInt64().map { CrashLoopRule(threshold: Int(truncatingIfNeeded: $0)) } ?? .default
  }
}

/// A read of every scene's latest snapshot id from the index on (scene_id, id), in scene order,
/// that hands them out a batch at a time, going on where it stopped (a statement stepped by hand,
/// reset by ``close()``).
///
/// `plain`: the index read in order and grouped here by the scene id's bytes, cheaper than
/// SQLite's GROUP BY, for scene ids all stored as UTF-8 text and compared with SQLite's BINARY
/// collation (byte for byte). Otherwise by GROUP BY, a row a scene.
private struct LatestSceneCursor {
  private let statement: Statement
  private let plain: Bool
  /// The group read but not handed out yet (its first row read): its scene id's bytes and its
  /// highest id so far.
  private var scene = SceneBytes()
  private var latest: Int64 = 0
  private var pending = false
  private var done = false

  /// `second`: the other of two cursors over the same rows (a statement of its own).
  init(_ db: Database, plain: Bool, second: Bool) throws(SQLiteError) {
    self.plain = plain
    let sql =
      plain
      ? "SELECT scene_id, id FROM snapshot ORDER BY scene_id, id"
      : "SELECT scene_id, max(id) FROM snapshot GROUP BY scene_id ORDER BY scene_id"
    statement = try db.statement(second ? sql + " -- again" : sql)
  }

  /// Resets the statement.
  func close() { statement.reset() }

  /// A scene id's bytes kept from one row to the next, in a buffer of its own (handed to `visit`
  /// without a closure around it).
  private final class SceneBytes {
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
    private(set) var count = 0

    deinit { storage.deallocate() }

    /// The bytes kept.
    var bytes: UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: storage[..<count])
    }

    /// Keeps a copy of `bytes` instead.
    func set(_ bytes: UnsafeRawBufferPointer) {
      if bytes.count > storage.count {
        storage.deallocate()
        storage = .allocate(byteCount: max(bytes.count, 2 * storage.count), alignment: 1)
      }
      if let source = bytes.baseAddress, let target = storage.baseAddress, bytes.count > 0 {
        target.copyMemory(from: source, byteCount: bytes.count)
      }
      count = bytes.count
    }

    /// Whether `other` are the bytes kept.
    func equals(_ other: UnsafeRawBufferPointer) -> Bool {
      guard other.count == count else { return false }
      guard count > 0, let base = other.baseAddress, let kept = storage.baseAddress else {
        return true
      }
      return memcmp(base, kept, count) == 0
    }
  }

  /// Passes the next scenes, at most `limit`, each with its latest snapshot's id, to `visit` (the
  /// scene id's bytes valid during the call) until it returns `false`.
  mutating func next(
    limit: Int, _ visit: (UnsafeRawBufferPointer, Int64) throws(SQLiteError) -> Bool
  ) throws(SQLiteError) {
    var visited = 0
    while visited < limit, !done {
      guard try statement.step() else {
        done = true
        if pending {
          pending = false
          _ = try visit(scene.bytes, latest)
        }
        return
      }
      var row = Row(statement)
      if !plain {
        let bytes = row.textBytes() ?? UnsafeRawBufferPointer(start: nil, count: 0)
        visited += 1
        guard try visit(bytes, row.int64()) else { return }
        continue
      }
      // Text, as `sceneIDsAreText` found (anything else is read as its text, never trapped on).
      let bytes = row.textBytes() ?? UnsafeRawBufferPointer(start: nil, count: 0)
      let id = row.int64()
      if pending, scene.equals(bytes) {
        // The highest, as max(id) finds it, even from an index out of its declared order.
        latest = max(latest, id)
        continue
      }
      if pending {
        visited += 1
        guard try visit(scene.bytes, latest) else {
          scene.set(bytes)
          latest = id
          return
        }
      }
      scene.set(bytes)
      latest = id
      pending = true
    }
  }
}

/// The second read of the index (the scenes in order), stepped on a thread of its own while the
/// calling thread hands the scenes already read on: the scene ids' bytes and their latest ids go
/// over in chunks of at most 1,024 scenes, three chunks in all. The connection is used by one
/// thread at a time: the reading thread holds a lock while it steps, and the calling thread takes
/// it to read anything else (``holdingConnection(_:)``).
private final class SceneReadAhead: @unchecked Sendable {
  /// Scenes read: their ids' bytes one after the other, each with its start, length and latest
  /// snapshot id.
  final class Chunk {
    var bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    var used = 0
    var entries: [Entry] = []
    /// Why the read stopped, when it failed.
    var error: SQLiteError?
    /// Whether the read ends with this chunk.
    var last = false

    struct Entry {
      var start: Int
      var count: Int
      var id: Int64
    }

    init() { entries.reserveCapacity(SceneReadAhead.maxEntries) }

    deinit { bytes.deallocate() }

    /// Forgets the scenes kept, ready to be filled again.
    func empty() {
      used = 0
      entries.removeAll(keepingCapacity: true)
      error = nil
      last = false
    }

    /// Keeps a scene, the buffer grown if need be.
    func append(_ scene: UnsafeRawBufferPointer, id: Int64) {
      if used + scene.count > bytes.count {
        let grown = UnsafeMutableRawBufferPointer.allocate(
          byteCount: max(2 * bytes.count, used + scene.count), alignment: 1)
        if let source = bytes.baseAddress, let target = grown.baseAddress, used > 0 {
          target.copyMemory(from: source, byteCount: used)
        }
        bytes.deallocate()
        bytes = grown
      }
      if let source = scene.baseAddress, let target = bytes.baseAddress, scene.count > 0 {
        (target + used).copyMemory(from: source, byteCount: scene.count)
      }
      entries.append(Entry(start: used, count: scene.count, id: id))
      used += scene.count
    }
  }

  static var maxEntries: Int { 1024 }

  /// The cursor, used on the reading thread during ``read(count:_:)``, else on the calling one.
  private var cursor: LatestSceneCursor
  /// Held by whichever thread uses the connection.
  private let connection = NSLock()
  private let condition = NSCondition()
  private var free: [Chunk] = []
  /// Chunks read and not handed on yet, oldest first.
  private var ready: [Chunk] = []
  private var stopping = false
  private var reading = false

  init(_ cursor: LatestSceneCursor) {
    self.cursor = cursor
    free = [Chunk(), Chunk(), Chunk()]
  }

  /// Resets the cursor's statement.
  func close() { cursor.close() }

  /// Runs `body` holding the connection: the reading thread does not step meanwhile.
  func holdingConnection<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    connection.lock()
    defer { connection.unlock() }
    return try body()
  }

  /// Passes the next `count` scenes (fewer when the index ends), each with its latest snapshot's
  /// id, to `visit` (the scene id's bytes valid during the call), until it returns `false`; the
  /// cursor then stands after the last scene read, as ``LatestSceneCursor/next(limit:_:)`` leaves
  /// it (read ahead of `visit` by at most the scenes `visit` did not get).
  func read(
    count: Int, _ visit: (UnsafeRawBufferPointer, Int64) throws(SQLiteError) -> Bool
  ) throws(SQLiteError) {
    condition.lock()
    stopping = false
    reading = true
    condition.unlock()
    let thread = Thread { [self] in readAhead(count: count) }
    thread.start()
    // The reading thread stopped and gone before the cursor is used again.
    defer {
      condition.lock()
      stopping = true
      condition.broadcast()
      while reading { condition.wait() }
      for chunk in ready { chunk.empty() }
      free += ready
      ready = []
      condition.unlock()
    }
    while true {
      condition.lock()
      while ready.isEmpty { condition.wait() }
      let chunk = ready.removeFirst()
      condition.unlock()
      defer {
        chunk.empty()
        condition.lock()
        free.append(chunk)
        condition.broadcast()
        condition.unlock()
      }
      let bytes = UnsafeRawBufferPointer(chunk.bytes)
      for entry in chunk.entries {
        let scene = UnsafeRawBufferPointer(
          rebasing: bytes[entry.start..<(entry.start + entry.count)])
        guard try visit(scene, entry.id) else { return }
      }
      if let error = chunk.error { throw error }
      if chunk.last { return }
    }
  }

  /// The reading thread: fills chunks until `count` scenes are read, the index ends, a step fails
  /// or the calling thread stops.
  private func readAhead(count: Int) {
    var left = count
    while true {
      condition.lock()
      while free.isEmpty, !stopping { condition.wait() }
      guard !stopping else {
        reading = false
        condition.broadcast()
        condition.unlock()
        return
      }
      let chunk = free.removeLast()
      condition.unlock()
      let wanted = min(left, Self.maxEntries)
      connection.lock()
      do {
        try cursor.next(limit: wanted) { scene, id in
          chunk.append(scene, id: id)
          return true
        }
      } catch {
        chunk.error = error
      }
      connection.unlock()
      left -= chunk.entries.count
      // Fewer than asked for: the index ended.
      chunk.last = left <= 0 || chunk.error != nil || chunk.entries.count < wanted
      condition.lock()
      ready.append(chunk)
      condition.broadcast()
      if chunk.last {
        reading = false
        condition.unlock()
        return
      }
      condition.unlock()
    }
  }
}

/// The latest snapshot ids of a batch of scenes in id order, each with its place in scene order:
/// packed in one `Int64` each (the id less the lowest, then the place) and sorted, 8 bytes a
/// scene; or, when the ids spread too far for that, the ids and their places sorted by id.
struct LatestIDOrder {
  private var values: [Int64]
  private let order: [UInt32]?
  private let base: Int64
  private let shift: Int

  /// The order of `ids`, given in scene order (at most 2^32 of them).
  init(sceneOrder ids: consuming [Int64]) {
    let count = ids.count
    shift = count <= 1 ? 0 : Int.bitWidth - (count - 1).leadingZeroBitCount
    base = ids.min() ?? 0
    let (spread, overflow) = (ids.max() ?? 0).subtractingReportingOverflow(base)
    if !overflow, shift < 63, spread >> (63 - shift) == 0 {
      // The caller's array, packed in place (no copy of it).
      var packed = consume ids
      for place in packed.indices {
        packed[place] = (packed[place] &- base) << shift | Int64(place)
      }
      let highest = spread << shift | (Int64(1) << shift - 1)
      Self.sort(&packed, bits: Int64.bitWidth - highest.leadingZeroBitCount)
      values = packed
      order = nil
    } else {
      values = ids
      order = ids.indices.map { UInt32(truncatingIfNeeded: $0) }.sorted {
        ids[Int($0)] < ids[Int($1)]
      }
    }
  }

  /// Sorts `values`, none negative and all below 2^`bits`: by their digits of 11 bits, the lowest
  /// first (a radix sort: a few passes over the values instead of a comparison sort's log n, which
  /// at a million scenes is most of the time before the first document is read); few values by a
  /// comparison sort.
  static func sort(_ values: inout [Int64], bits: Int) {
    guard values.count > 256 else {
      values.sort()
      return
    }
    let digit = 11
    let mask = Int64(1 << digit - 1)
    var scratch = [Int64](repeating: 0, count: values.count)
    var counts = [Int](repeating: 0, count: 1 << digit)
    var shift: Int64 = 0
    while shift < Int64(bits) {
      values.withUnsafeBufferPointer { source in
        scratch.withUnsafeMutableBufferPointer { target in
          counts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            for value in source { counts[Int((value &>> shift) & mask)] += 1 }
            // Each digit's first place in the target.
            var total = 0
            for bucket in counts.indices {
              let count = counts[bucket]
              counts[bucket] = total
              total += count
            }
            for value in source {
              let bucket = Int((value &>> shift) & mask)
              target[counts[bucket]] = value
              counts[bucket] += 1
            }
          }
        }
      }
      swap(&values, &scratch)
      shift += Int64(digit)
    }
  }

  /// The `index`th id, in id order.
  func id(at index: Int) -> Int64 {
    if let order { return values[Int(order[index])] }
    return base &+ values[index] >> shift
  }

  /// The place in scene order of the `index`th id.
  func position(at index: Int) -> Int {
    if let order { return Int(order[index]) }
    return Int(values[index] & ((1 << shift) - 1))
  }
}

/// The summaries of a batch's scenes by place in scene order, for
/// ``SnapshotStore/forEachLatestSnapshot(batchSize:judges:marksInMemory:judging:_:)``: each place
/// written once, by one judge's thread, and read on the calling thread once the judges are done
/// (the pool's lock orders the two).
@usableFromInline
final class LatestSummaries<Summary>: @unchecked Sendable {
  @usableFromInline
  var storage = UnsafeMutableBufferPointer<Summary?>(start: nil, count: 0)

  @inlinable
  init() {}

  deinit { free() }

  /// Frees the summaries.
  @inlinable
  func free() {
    storage.deinitialize()
    storage.deallocate()
    storage = UnsafeMutableBufferPointer(start: nil, count: 0)
  }

  /// Starts a batch of `count` places, none summarized.
  @inlinable
  func start(count: Int) {
    free()
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil)
  }

  /// The summary at `place` (less than the batch's count).
  @inlinable
  subscript(place: Int) -> Summary? { storage[place] }

  /// Keeps `summary` at `place` (less than the batch's count).
  @inlinable
  func set(_ summary: Summary?, at place: Int) { storage[place] = summary }
}

/// A document copied into a ``JudgePool``'s buffer: its scene's place, its id and where its bytes
/// are in the buffer.
private struct JudgedDocument {
  var position: Int
  var id: Int64
  var start: Int
  var count: Int
}

/// Documents judged on other threads while the table is read: the reading thread copies each
/// document into a buffer of 64 KiB, hands full buffers to the judges' threads and takes empty ones
/// back; each judge keeps what it makes of a document at the scene's place (the caller's storage).
/// Not generic, so that the reading thread's calls a row look no type up.
private final class JudgePool: @unchecked Sendable {
  /// A judge: a document's scene's place, its id and its bytes.
  typealias Judge = (Int, Int64, UnsafeRawBufferPointer) -> Void

  /// Documents copied for a judge, each with its scene's place and its id, in memory of its own (no
  /// array's uniqueness and exclusivity checks a document).
  final class Batch {
    let bytes = UnsafeMutableRawBufferPointer.allocate(
      byteCount: JudgePool.capacity, alignment: 16)
    var used = 0
    let entries = UnsafeMutableBufferPointer<JudgedDocument>.allocate(
      capacity: JudgePool.maxEntries)
    var count = 0

    deinit {
      bytes.deallocate()
      entries.deallocate()
    }
  }

  static var capacity: Int { 64 * 1024 }
  /// The most documents a buffer takes: a store of empty or tiny documents fills no 64 KiB, and
  /// without this its documents' entries would pile up in one buffer, a whole batch of scenes.
  static var maxEntries: Int { 2048 }

  private let condition = NSCondition()
  private var free: [Batch] = []
  private var full: [Batch] = []
  private var finished = false
  private var running = 0
  private var current = Batch()
  /// The reading thread's judge, for documents longer than a buffer.
  private let local: Judge

  init(judges: Int, _ makeJudge: @escaping @Sendable () -> Judge) {
    local = makeJudge()
    free = (0..<(4 * judges)).map { _ in Batch() }
    running = judges
    for _ in 0..<judges {
      let thread = Thread { [self] in work(makeJudge()) }
      // The judgement recurses as deep as a document nests (within the limits): not the 512 KiB
      // of a secondary thread on Apple platforms, but what a main thread has.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// Has the document judged (a copy of it), what is made of it kept at `position`.
  func judge(position: Int, id: Int64, document: UnsafeRawBufferPointer) {
    let length = document.count
    guard length <= Self.capacity else {
      local(position, id, document)
      return
    }
    var batch = current
    if batch.used + length > Self.capacity || batch.count == Self.maxEntries {
      submit()
      batch = current
    }
    let start = batch.used
    if let source = document.baseAddress, let target = batch.bytes.baseAddress, length > 0 {
      (target + start).copyMemory(from: source, byteCount: length)
    }
    batch.entries[batch.count] = JudgedDocument(
      position: position, id: id, start: start, count: length)
    batch.count += 1
    batch.used = start + length
  }

  /// Hands the current buffer to the judges and takes an empty one, waiting for one if need be.
  private func submit() {
    condition.lock()
    full.append(current)
    condition.broadcast()
    while free.isEmpty { condition.wait() }
    current = free.removeLast()
    condition.unlock()
  }

  /// Hands the last buffer to the judges and waits until they are all done.
  func finish() {
    condition.lock()
    if current.count > 0 {
      full.append(current)
      current = Batch()
    }
    finished = true
    condition.broadcast()
    while running > 0 { condition.wait() }
    condition.unlock()
  }

  /// A judge's thread: judges full buffers until there are no more.
  private func work(_ judge: Judge) {
    while true {
      condition.lock()
      while full.isEmpty, !finished { condition.wait() }
      guard let batch = full.popLast() else {
        running -= 1
        condition.broadcast()
        condition.unlock()
        return
      }
      condition.unlock()
      let bytes = UnsafeRawBufferPointer(batch.bytes)
      for entry in batch.entries[..<batch.count] {
        judge(
          entry.position, entry.id,
          UnsafeRawBufferPointer(rebasing: bytes[entry.start..<(entry.start + entry.count)]))
      }
      batch.used = 0
      batch.count = 0
      condition.lock()
      free.append(batch)
      condition.broadcast()
      condition.unlock()
    }
  }
}
