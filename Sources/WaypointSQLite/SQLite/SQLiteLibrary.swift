#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Facts about the SQLite library Waypoint's store is linked with.
///
/// The store itself (saving snapshots per scene) builds on this module; see `Docs/Concepts.md`.
package enum SQLiteLibrary {
  /// The version of the linked SQLite library, such as `3.40.1`. The corresponding C function is
  /// `sqlite3_libversion`.
  package static var version: String { String(cString: sqlite3_libversion()) }

  /// The version as a number, such as `3040001`. The corresponding C function is
  /// `sqlite3_libversion_number`.
  package static var versionNumber: Int { Int(sqlite3_libversion_number()) }
}
