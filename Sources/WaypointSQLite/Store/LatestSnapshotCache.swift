import Foundation
import Waypoint

/// What one connection knows of each scene's latest snapshot, so that saving a state that did not
/// change reads nothing and writes nothing, and saving a new one need not look the latest up.
///
/// Valid only while no other connection has committed to the file: every use checks first
/// (``check(_:underWriteLock:)``) that the WAL index's header is the one recorded, else the connection's
/// `PRAGMA data_version`, which changes with any commit of another connection, in this process or
/// another, and the store drops the whole cache
/// before any write of its own that is not a save (a prune, an import), or the one scene a restore's
/// bookkeeping touches,
/// and when a save's transaction fails. Used under the store's lock only.
final class LatestSnapshotCache {
  /// A scene's latest snapshot.
  struct Entry {
    /// Its id.
    var id: Int64
    /// Its document, when it was read from the file; `nil` when it was not (its length differs
    /// from the one saved then) and for a snapshot this connection saved, which ``saved`` stands
    /// for.
    var document: Data?
    /// Whether it is quarantined: a save never coalesces with a quarantined snapshot.
    var quarantined: Bool
    /// How many snapshots the scene holds, quarantined ones included (the trimming rule).
    var count: Int
    /// The snapshot this connection saved, when it did (it stands for its document, which the
    /// entry does not keep): an unchanged state is recognised by
    /// ``/Waypoint/SceneSnapshot/encodesLike(_:)`` without encoding it. Boxed: an entry is copied
    /// on every lookup, and a snapshot copied retains and releases each of its strings and
    /// collections.
    var saved: Saved?
  }

  /// A snapshot this connection saved, shared by the copies of its entry.
  final class Saved {
    let snapshot: SceneSnapshot

    init(_ snapshot: SceneSnapshot) { self.snapshot = snapshot }

    /// Whether `other` encodes to this snapshot's document but for its save time
    /// (``/Waypoint/SceneSnapshot/encodesLike(_:)``), compared where this one is stored.
    func isEncoded(like other: SceneSnapshot) -> Bool { other.encodesLike(snapshot) }
  }

  /// A scene id, told apart from others by its UTF-8 bytes (``SceneID``), where Swift's `String`
  /// equality would take "café" in NFC and in NFD for one scene. Made without copying the bytes (a
  /// save makes one for every lookup).
  struct Key {
    let scene: String

    init(_ scene: String) { self.scene = scene }

    /// Whether `other` names the same scene: the same UTF-8 bytes.
    func matches(_ other: Key) -> Bool {
      // Compared where both strings keep their bytes (native and small strings do), without
      // copying either.
      let inPlace = scene.utf8.withContiguousStorageIfAvailable { a in
        other.scene.utf8.withContiguousStorageIfAvailable { b in
          guard a.count == b.count else { return false }
          guard let start = a.baseAddress, let other = b.baseAddress else { return true }
          return memcmp(start, other, a.count) == 0
        }
      }
      if let inPlace, let inPlace { return inPlace }
      return scene.utf8.elementsEqual(other.scene.utf8)
    }
  }

  /// The most scenes the cache remembers. An app has a few scenes; a process that saves to more
  /// (a tool) forgets the one it learned of first, whose next save looks its latest snapshot up
  /// in the file as a first save does. A list this short is searched faster than a dictionary
  /// hashes its key, with less code for a save to run.
  static let capacity = 32

  /// The scenes' entries, in the order they were learned of (the latest last, where a lookup
  /// starts); an entry is `nil` only while ``update(_:_:)`` runs.
  ///
  /// This class's stored properties are used under the store's lock only, and no access to one of
  /// them stays open across a call that could reach it again (``update(_:_:)`` moves the entry
  /// out first): their accesses are not checked at run time (`@exclusivity(unchecked)`), a
  /// check that cost every save a call into the runtime.
  @exclusivity(unchecked) private var entries: [(key: Key, entry: Entry?)] = []
  /// The `data_version` the entries are valid for.
  @exclusivity(unchecked) private var dataVersion: Int64?
  /// The header of the WAL index when the entries were last known to be valid: read before the
  /// `data_version` they were checked against, or right after this connection's own commit when
  /// nobody else committed in between. While the file's header is still this one, nobody has
  /// committed since, and the entries hold without asking `data_version` (a read transaction, two
  /// system calls for its lock).
  @exclusivity(unchecked) private var walHeader: Database.WALIndexHeader?

  /// Keeps the entries only when nobody else committed since they were recorded.
  ///
  /// - Returns: whether they were kept.
  private func validate(dataVersion version: Int64) -> Bool {
    guard version != dataVersion else { return true }
    entries.removeAll(keepingCapacity: true)
    dataVersion = version
    return false
  }

  /// Checks the entries against the file, keeping them only when nobody else committed: without a
  /// system call when the WAL index's header is still the one recorded (nobody has committed since);
  /// otherwise against `data_version`, recording the header read just before it (a commit after
  /// that read changes the header, so the next check asks again). That `data_version` must be the
  /// latest: read `underWriteLock` (inside `BEGIN IMMEDIATE`, where nobody else can commit), or
  /// outside any transaction; a transaction left open by a failed `COMMIT` and `ROLLBACK` would
  /// show an older state, so it is rolled back first.
  ///
  /// - Returns: whether the entries were kept, and the header read (`nil` when it could not be
  ///   read whole).
  @discardableResult
  func check(_ db: Database, underWriteLock: Bool = false) throws(SQLiteError) -> (
    kept: Bool, header: Database.WALIndexHeader?
  ) {
    let header = db.walIndexHeader()
    if let header, header == walHeader { return (true, header) }
    if !underWriteLock { try db.rollBackLeftoverTransaction() }
    let kept = validate(dataVersion: try db.dataVersion())
    walHeader = header
    return (kept, header)
  }

  /// Records the WAL index's header after this connection's own transaction, which ran with the
  /// entries valid: `before` was read inside it (under the write lock, so the latest), `after`
  /// once it committed. When the commit counter moved by exactly this transaction's commit (one
  /// when it `wrote`, none otherwise), nobody else committed in between and `after` is recorded;
  /// otherwise nothing is, and the next check asks `data_version`.
  func recordOwnCommit(
    before: Database.WALIndexHeader?, after: Database.WALIndexHeader?, wrote: Bool
  ) {
    guard let before, let after, after.change == before.change &+ (wrote ? 1 : 0) else {
      walHeader = nil
      return
    }
    walHeader = after
  }

  /// Forgets everything (a write that is not a save, a failed transaction, a new connection).
  func invalidate() {
    entries.removeAll(keepingCapacity: true)
    dataVersion = nil
    walHeader = nil
  }

  /// Forgets one scene (a write of this connection that changed that scene's rows alone).
  func forget(_ scene: Key) {
    if let place = place(of: scene) { entries.remove(at: place) }
  }

  /// Runs `body` on a scene's entry (`nil` when there is none; setting `nil` forgets it): the
  /// scene is looked for once for the lookup and the update. The entry is moved out of the list
  /// while `body` runs and put back after, even when `body` throws, so that no access to the list
  /// stays open across the call (its accesses are not checked at run time: see `entries`).
  func update<T>(_ scene: Key, _ body: (inout Entry?) throws(SQLiteError) -> T)
    throws(SQLiteError) -> T
  {
    var entry: Entry?
    guard let place = place(of: scene) else {
      defer { if let entry { store(entry, for: scene) } }
      return try body(&entry)
    }
    swap(&entry, &entries[place].entry)
    defer {
      // `body` leaves the list alone; were it to change it, `place` could name another scene's
      // slot: the cache is then emptied rather than trusted (forgetting is always safe).
      if place < entries.count, entries[place].entry == nil, entries[place].key.matches(scene) {
        if entry == nil { entries.remove(at: place) } else { swap(&entry, &entries[place].entry) }
      } else {
        invalidate()
      }
    }
    return try body(&entry)
  }

  subscript(scene: Key) -> Entry? {
    get { place(of: scene).flatMap { entries[$0].entry } }
    set {
      if let place = place(of: scene) {
        if let newValue { entries[place].entry = newValue } else { entries.remove(at: place) }
      } else if let newValue {
        store(newValue, for: scene)
      }
    }
  }

  /// Where the scene's entry is, looked for from the one learned of last.
  private func place(of scene: Key) -> Int? {
    var place = entries.count
    while place > 0 {
      place -= 1
      if entries[place].key.matches(scene) { return place }
    }
    return nil
  }

  /// Adds the entry of a scene the cache does not hold, forgetting the oldest past the capacity.
  private func store(_ entry: Entry, for scene: Key) {
    if entries.count >= Self.capacity { entries.removeFirst() }
    entries.append((scene, entry))
  }

  /// Whether the document `new` equals `stored` but for its save time: same length, same bytes
  /// outside `savedAt` (where ``/Waypoint/SceneSnapshot/encodeLocatingSavedAt(storedForm:into:)``
  /// found the date), and a date of the same form inside it in `stored`.
  static func equalButForSaveTime(
    _ new: UnsafeRawBufferPointer, _ stored: Data, savedAt: Range<Int>
  ) -> Bool {
    guard new.count == stored.count, savedAt.lowerBound >= 0,
      savedAt.upperBound <= new.count, savedAt.count == 20
    else { return false }
    return stored.withUnsafeBytes { old in
      guard let newBase = new.baseAddress, let oldBase = old.baseAddress else { return false }
      let start = savedAt.lowerBound
      let end = savedAt.upperBound
      guard memcmp(newBase, oldBase, start) == 0,
        memcmp(newBase + end, oldBase + end, new.count - end) == 0
      else { return false }
      // YYYY-MM-DDTHH:MM:SSZ
      for offset in 0..<20 {
        let byte = old[start + offset]
        let expected: UInt8? =
          switch offset {
          case 4, 7: 0x2D
          case 10: 0x54
          case 13, 16: 0x3A
          case 19: 0x5A
          default: nil
          }
        if let expected {
          guard byte == expected else { return false }
        } else {
          guard byte >= 0x30 && byte <= 0x39 else { return false }
        }
      }
      return true
    }
  }
}
