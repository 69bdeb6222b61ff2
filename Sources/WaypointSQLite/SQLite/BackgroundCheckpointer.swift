import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Copies a connection's write-ahead log into its database file (a checkpoint) on a thread of its
/// own, so that the save whose commit fills the WAL does not copy it.
///
/// SQLite's own policy (`wal_autocheckpoint`) runs a checkpoint inside the commit that leaves the
/// WAL at 1,000 pages or more: that save copies every page written since the last checkpoint into
/// the file and waits for two `fsync`s, a few milliseconds every few hundred saves. Here the
/// connection's WAL hook (``Database/checkpointInBackground(_:)``) only signals this object when a
/// commit leaves ``pages`` or more in the WAL, and a thread checkpoints through a second
/// connection to the same file (`SQLITE_CHECKPOINT_PASSIVE`: it never waits for SQLite's locks).
/// It copies the bulk while saves go on, then what they added meanwhile holding `writers`, the
/// store's lock (``copyWAL(_:)``), so that the writer's next transaction starts the WAL over from
/// its beginning, as after SQLite's own checkpoints. A save of this store that comes during that
/// last pass waits for it.
///
/// What can go wrong, and what then happens:
/// - The thread falls behind, or its checkpoints fail (the disk refuses a write): a commit that
///   leaves ``inlinePages`` or more in the WAL checkpoints itself, as SQLite would, so the WAL
///   stays bounded. Nothing is lost either way: a checkpoint only copies committed pages, and a
///   failed one is done again from the WAL.
/// - Its connection cannot be opened: the same, and no request for ``retryDelay``; then the
///   thread tries again.
/// - The file at the path is no longer the connection's (deleted, or another file renamed over
///   it): the thread's connection is opened only after checking that the path still leads to the
///   file the store opened (its device and inode), and kept only when its own file is still that
///   one; it never checkpoints when it closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`), so a
///   connection refused that way copies nothing into the file it opened. A connection opened
///   before such a replacement checkpoints the file it has open, which nobody reads any more; the
///   store closes both connections when it notices (``stop()``).
/// - The connection closes (the store is released or reopens its file): ``stop()`` ends the
///   thread, waits for it to close its connection, and only then may the caller close its own, so
///   that the last connection to close is the store's (SQLite checkpoints and removes the WAL when
///   its last connection closes).
///
/// Thread safety: ``committed(_:walPages:)`` runs on the thread that commits (the store's lock,
/// `writers`, held); ``stop()`` on the thread that closes the connection; the rest under
/// `condition`. Locks are taken in one order, `writers` then `condition`: the thread never waits
/// for `writers` while it holds `condition`, and gives up waiting when ``stop()`` is called.
final class BackgroundCheckpointer: @unchecked Sendable {
  /// The WAL size, in pages, from which a commit asks the thread for a checkpoint.
  let pages: Int32
  /// The WAL size, in pages, from which the committing connection checkpoints itself: four times
  /// ``pages``.
  let inlinePages: Int32
  /// Opens the checkpointing connection, or answers `nil` (see the type's discussion). Called on
  /// the thread, at its first checkpoint.
  private let connect: @Sendable () -> Database?
  /// The lock that every use of the watched connection holds: held by the thread, no commit of
  /// this process comes in between (``copyWAL(_:)``).
  private let writers: NSLock

  private let condition = NSCondition()
  /// A commit asked for a checkpoint since the thread last started one.
  private var requested = false
  /// The thread exists (started and not yet ended).
  private var threadRunning = false
  /// ``stop()`` asked the thread to end.
  private var stopping = false
  /// The connection could not be opened: no request before this time (meanwhile the committing
  /// connection checkpoints past ``inlinePages``), then the thread tries again.
  private var unavailableUntil: ContinuousClock.Instant?
  /// How long the thread waits before it tries again to open a connection it could not open.
  static let retryDelay = Duration.seconds(1)
  /// The thread's connection, set by the thread under `condition` (so that ``stop()`` can
  /// interrupt it) and used by the thread alone.
  private var connection: Database?
  /// Checkpoints the thread ran that copied the whole WAL.
  private var completedCount = 0
  /// Checkpoints the committing connection ran itself, the thread behind or without a connection.
  private var inlineCount = 0
  /// The thread is running a checkpoint (or opening its connection for one).
  private var busy = false

  /// The wall time of the thread's checkpoints (the SQLite calls, not the waits for `writers`),
  /// answered `SQLITE_OK` or not.
  private var checkpointTime = Duration.zero
  /// The WAL frames the watched connection's commits wrote, and the WAL's size after the last one;
  /// used under `writers`, by ``committed(_:walPages:)``.
  private var framesWritten = 0
  private var lastWALPages: Int32 = 0

  /// Checkpoints the thread ran that copied the whole WAL (tests).
  var completed: Int { locked { completedCount } }
  /// Checkpoints that copied the whole WAL and the wall time of the SQLite calls of all the thread
  /// ran (benchmarks: the work the saves no longer wait for).
  var totals: (completed: Int, time: Duration) { locked { (completedCount, checkpointTime) } }
  /// The WAL frames the watched connection's commits wrote since it opened (a WAL that started
  /// over counted from its start). Read holding `writers`.
  var framesCommitted: Int { framesWritten }
  /// Checkpoints the committing connection ran itself, the thread behind or without a connection
  /// (tests).
  var ranInline: Int { locked { inlineCount } }
  /// Whether the thread exists: started by a commit and not ended by ``stop()`` (tests).
  var isRunning: Bool { locked { threadRunning } }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// - Parameters:
  ///   - pages: The WAL size, in pages, from which a commit asks for a checkpoint; at least 1.
  ///   - writers: The lock that every use of the watched connection holds (the store's).
  ///   - connect: Opens the thread's connection to the same file, checked as the type's
  ///     discussion says; `nil` when it cannot.
  init(pages: Int, writers: NSLock, connect: @escaping @Sendable () -> Database?) {
    self.writers = writers
    let clamped = Int32(clamping: max(1, pages))
    self.pages = clamped
    self.inlinePages = clamped.multipliedReportingOverflow(by: 4).overflow ? .max : clamped * 4
    self.connect = connect
  }

  /// The WAL hook's work, after every commit of the watched connection: asks the thread for a
  /// checkpoint from ``pages`` pages on, checkpoints on this connection from ``inlinePages`` on.
  /// Returns `SQLITE_OK` (an error would be reported as the commit's, which has happened).
  func committed(_ db: OpaquePointer?, walPages: Int32) -> Int32 {
    framesWritten += Int(walPages > lastWALPages ? walPages - lastWALPages : walPages)
    lastWALPages = walPages
    guard walPages >= pages else { return SQLITE_OK }
    if walPages >= inlinePages {
      // SQLite's own hook does the same from its threshold on; within the hook is allowed.
      _ = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      locked { inlineCount += 1 }
      return SQLITE_OK
    }
    condition.lock()
    defer { condition.unlock() }
    guard !stopping else { return SQLITE_OK }
    if let until = unavailableUntil {
      guard ContinuousClock.now >= until else { return SQLITE_OK }
      unavailableUntil = nil
    }
    requested = true
    if threadRunning {
      condition.broadcast()
    } else {
      threadRunning = true
      // The default quality of service: the last pass holds the store's lock, which a save on a
      // thread of higher priority may be waiting for.
      let thread = Thread { [self] in run() }
      thread.name = "Waypoint checkpoints"
      thread.start()
    }
    return SQLITE_OK
  }

  /// Ends the thread and closes its connection; returns once both are done. A checkpoint under way
  /// is interrupted (`sqlite3_interrupt`), and the thread checks before each pass and while it
  /// waits for `writers`; what cannot be interrupted is one open of its connection (waits of
  /// 100 ms at most, ``SnapshotStore``'s `checkpointConnection`) and a write or `fsync` SQLite
  /// has begun. A later commit past ``pages`` starts a new thread. Safe to call at any time, and
  /// more than once.
  func stop() {
    condition.lock()
    defer { condition.unlock() }
    if threadRunning {
      stopping = true
      if let handle = connection?.handle { sqlite3_interrupt(handle) }
      condition.broadcast()
      while threadRunning { condition.wait() }
      stopping = false
    }
    requested = false
    unavailableUntil = nil
  }

  /// Waits until the thread has no checkpoint to run or under way, at most `timeout` (tests).
  /// Returns whether it is idle.
  func waitUntilIdle(timeout: Duration) -> Bool {
    let deadline = Date().addingTimeInterval(
      Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    while requested || busy {
      guard condition.wait(until: deadline) else { return false }
    }
    return true
  }

  /// The thread's loop: waits for a request, checkpoints, until ``stop()``.
  private func run() {
    condition.lock()
    while true {
      while !requested && !stopping { condition.wait() }
      if stopping { break }
      requested = false
      busy = true
      var db = connection
      condition.unlock()
      // An open cannot be interrupted; ``connect`` keeps its waits short.
      if db == nil { db = connect() }
      condition.lock()
      if connection == nil { connection = db }
      guard !stopping else { break }
      guard let db else {
        unavailableUntil = ContinuousClock.now.advanced(by: Self.retryDelay)
        busy = false
        condition.broadcast()
        continue
      }
      condition.unlock()
      let copy = copyWAL(db)
      condition.lock()
      if copy.whole { completedCount += 1 }
      checkpointTime += copy.time
      busy = false
      condition.broadcast()
    }
    let db = connection
    connection = nil
    condition.unlock()
    db?.close()
    condition.lock()
    busy = false
    threadRunning = false
    condition.broadcast()
    condition.unlock()
  }

  /// The frames a pass may copy, at most, for the next one to copy the rest holding `writers`.
  static let tailFrames: Int32 = 64

  /// Copies the WAL into the file, whole unless another process commits meanwhile. Called on the
  /// thread, without `condition`.
  ///
  /// A passive checkpoint copies what was committed when it began, and commits go on meanwhile,
  /// adding frames after it; the writer starts the WAL over only once every frame is copied. So
  /// while saves keep coming, a checkpoint run alone would leave a few frames behind, and the next
  /// commit would ask for another one, each waiting for the disk. Instead the bulk is copied with
  /// the writers running (again, up to three passes, while a pass copied more than
  /// ``tailFrames`` frames), then what they added meanwhile holding `writers`, the lock every use
  /// of the store's connection takes: no commit of this process comes in between, a save that
  /// arrives then waits for those few frames only (none, in an app that saves seconds apart: that
  /// pass then copies nothing and does not wait for the disk), and the next write starts the WAL
  /// over.
  ///
  /// - Returns: whether SQLite answered `SQLITE_OK` to every pass and the last one copied the
  ///   whole WAL, and the wall time of the passes.
  private func copyWAL(_ db: Database) -> (whole: Bool, time: Duration) {
    let clock = ContinuousClock()
    var time = Duration.zero
    func timedCheckpoint() -> (code: Int32, frames: Int32, copied: Int32) {
      let start = clock.now
      defer { time += start.duration(to: clock.now) }
      return db.checkpoint()
    }
    var copiedBefore: Int32 = 0
    for _ in 0..<3 {
      // SQLite forgets an interrupt that comes between two checkpoints: asked here too.
      if locked({ stopping }) { return (false, time) }
      let pass = timedCheckpoint()
      guard pass.code == SQLITE_OK else { return (false, time) }
      // Frames are counted from the WAL's start: a restart by another process counts as little.
      let copied = pass.copied - copiedBefore
      copiedBefore = pass.copied
      if copied <= Self.tailFrames { break }
    }
    // Given up when `stop()` is called meanwhile: the thread that stops it may hold `writers`.
    while !writers.lock(before: Date(timeIntervalSinceNow: 0.002)) {
      if locked({ stopping }) { return (false, time) }
    }
    // Holding `writers`, this pass copies every commit of this process so far: the requests they
    // made are answered by it.
    locked { requested = false }
    let tail = timedCheckpoint()
    writers.unlock()
    return (tail.code == SQLITE_OK && tail.frames == tail.copied, time)
  }
}
