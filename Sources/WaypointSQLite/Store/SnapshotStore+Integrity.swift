import Foundation
import Waypoint

extension SnapshotStore {
  /// Runs SQLite's integrity check over the whole file on this store's connection: `quick_check`
  /// (every page and b-tree structure), or with `full`, `integrity_check` (also every index
  /// against its table). Opening a store does neither (see
  /// ``StoreConfiguration/integrityCheck``): call this on a schedule of the app's choosing, for
  /// example from a background task, since it reads the whole file (about 1.5 s for a million
  /// snapshots with a warm cache). Nothing is repaired.
  ///
  /// - Returns: what the check reported, at most 100 lines (or SQLite's error, when damage stopped
  ///   the check itself); empty when the file is sound.
  /// - Throws: ``StoreError``: `busy`, `ioError`.
  public func checkIntegrity(full: Bool = false) throws(StoreError) -> [String] {
    // One statement, outside any explicit transaction: a transaction around it could fail to end
    // on a damaged file.
    try withDatabase { db throws(SQLiteError) in try Self.integrityFindings(db, full: full) }
  }

  /// What SQLite's `quick_check` (or with `full`, `integrity_check`) reports on `db`, at most 100
  /// lines, empty when the file is sound; a check stopped by damage it could not step over reports
  /// that error as its finding. Stores and the command-line check both run it.
  package static func integrityFindings(_ db: Database, full: Bool) throws(SQLiteError)
    -> [String]
  {
    let pragma = full ? "integrity_check" : "quick_check"
    var findings: [String] = []
    do throws(SQLiteError) {
      // Appended one by one: the findings before damage that stops the check are kept.
      try db.query("PRAGMA \(pragma)(100)") { row throws(SQLiteError) in
        findings.append(row.text() ?? "")
        return .continue
      }
    } catch  where error.code.primary == .corrupt || error.code.primary == .notADatabase {
      // The check itself stopped on damage it could not step over: that is its finding.
      findings.append(error.message)
    }
    return findings == ["ok"] ? [] : findings
  }
}
