import Foundation
import WaypointSQLite

/// The stores the navigators of this process use, one per file: every navigator that names the
/// same path shares one ``/WaypointSQLite/SnapshotStore`` (one SQLite connection), opened by the
/// first that needs it and closed when the last one using it is gone.
///
/// A path is named as the app gives it, made absolute and standardized (`.` and `..` resolved),
/// and compared byte for byte, as the file system compares names: `café` written precomposed and
/// decomposed are two files on Linux (Swift's `String` calls them equal). Two paths that reach one
/// file through different symbolic links or spellings open it twice, which SQLite allows (it is
/// then two connections, as two processes would be).
enum SharedStores {
  /// The stores open now, by the path's bytes (``key(_:)``), held weakly: each navigator that
  /// uses one holds it.
  private static let open = Mutex([String: WeakStore]())

  private struct WeakStore {
    weak var store: SnapshotStore?
  }

  /// The store at `path`, shared with every other user of the same path, opened when none is.
  ///
  /// - Throws: ``/WaypointSQLite/StoreError`` from opening the store.
  static func store(at path: String) throws(StoreError) -> SnapshotStore {
    let key = Self.key(path)
    return try open.withLock { (stores) throws(StoreError) -> SnapshotStore in
      if let store = stores[key]?.store { return store }
      let store = try SnapshotStore(path: path)
      stores[key] = WeakStore(store: store)
      return store
    }
  }

  /// The store open now for `path`, if any (tests: creating navigators opens none; scenes on one
  /// path share one, closed with the last navigator that uses it).
  static func openStore(at path: String) -> SnapshotStore? {
    let key = Self.key(path)
    return open.withLock { stores in stores[key]?.store }
  }

  /// The standardized path, each byte written as the scalar of its value (U+0000 to U+00FF): no
  /// two such strings are canonically equivalent (none holds a combining mark), so two keys are
  /// equal exactly when the paths' bytes are.
  private static func key(_ path: String) -> String {
    var key = String.UnicodeScalarView()
    for byte in URL(fileURLWithPath: path).standardizedFileURL.path.utf8 {
      key.append(Unicode.Scalar(byte))
    }
    return String(key)
  }
}

/// A value guarded by a lock, for state shared across threads.
final class Mutex<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) { self.value = value }

  func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
