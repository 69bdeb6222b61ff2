import Foundation

/// What one connection knows of each scene's latest snapshot, so that saving a state that did not
/// change writes nothing, and saving a new one need not read the latest first.
///
/// Valid only while no other connection has committed to the file. SQLite's `PRAGMA data_version`
/// changes with every commit of another connection (in this process or another) and never with
/// this connection's own: ``sync(_:)`` empties the cache when it moved. The store also empties it
/// before any write of its own that is not a save (a prune, an import), forgets the one scene a
/// restore's bookkeeping touches, and empties it when a transaction fails. Used under the store's
/// lock only.
package struct LatestSnapshotCache {
  /// A scene's latest snapshot.
  package struct Entry {
    /// Its id.
    package var id: Int64
    /// Its document, as stored.
    package var document: Data
    /// Whether it is quarantined: a save never coalesces with a quarantined snapshot.
    package var quarantined: Bool
    /// How many snapshots the scene holds, quarantined ones included (the trimming rule).
    package var count: Int
  }

  /// The most document bytes the cache holds (1 MiB: a thousand scenes of typical size). Past
  /// this, the cache starts over, and a scene's next save reads its latest snapshot from the file
  /// as a first save does.
  static let capacity = 1 << 20

  /// The entries, by the scene id's UTF-8 bytes (``SceneID``: "café" in NFC and in NFD are two
  /// scenes, where `String` equality would take them for one).
  private var entries: [[UInt8]: Entry] = [:]
  /// The sum of the entries' document sizes.
  private var bytes = 0
  /// The `data_version` the entries are valid for.
  private var dataVersion: Int64?

  /// Empties the cache when another connection committed since the entries were recorded: it
  /// reads the connection's `PRAGMA data_version`, which must show the latest commit (outside a
  /// transaction, or inside `BEGIN IMMEDIATE`).
  ///
  /// - Returns: whether the entries were kept.
  @discardableResult
  mutating func sync(_ db: Database) throws(SQLiteError) -> Bool {
    let version = try db.dataVersion()
    guard version != dataVersion else { return true }
    removeAll()
    dataVersion = version
    return false
  }

  /// The scene's latest snapshot, when the cache knows it.
  subscript(scene: String) -> Entry? {
    get { entries[Array(scene.utf8)] }
    set {
      let key = Array(scene.utf8)
      if let old = entries.removeValue(forKey: key) { bytes -= old.document.count }
      guard let newValue else { return }
      if bytes + newValue.document.count > Self.capacity { removeAll() }
      entries[key] = newValue
      bytes += newValue.document.count
    }
  }

  /// Forgets one scene (a write of this connection that changed that scene's rows alone).
  mutating func forget(_ scene: String) { self[scene] = nil }

  /// Forgets everything (a write that is not a save, a failed transaction, a new connection).
  mutating func invalidate() {
    removeAll()
    dataVersion = nil
  }

  private mutating func removeAll() {
    entries.removeAll()
    bytes = 0
  }
}
