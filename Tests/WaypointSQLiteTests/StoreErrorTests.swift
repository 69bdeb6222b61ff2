import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

@Suite("Store errors and the store's drop reasons")
struct StoreErrorTests {
  /// Every code the store throws, with the line the CLI has always printed for it.
  static let errors: [(StoreError, StoreError.Code, String)] = [
    (.cannotOpen(path: "/s", detail: "no such file"), .cannotOpen, "/s: cannot open: no such file"),
    (.notAWaypointStore(path: "/s"), .notAWaypointStore, "/s: not a Waypoint store"),
    (
      .newerSchema(path: "/s", found: 4, supported: 3), .newerSchema,
      "/s: store schema 4 is newer than this build supports (3); left unchanged"
    ),
    (.corrupt(path: "/s", detail: "malformed"), .corrupt, "/s: corrupt store: malformed"),
    (.busy(path: "/s"), .busy, "/s: store is busy (locked by another connection); try again"),
    (.diskFull(path: "/s"), .diskFull, "/s: disk full; nothing was written"),
    (.readOnly(path: "/s", detail: "nope"), .readOnly, "/s: read-only: nope"),
    (.ioError(path: "/s", detail: "eio"), .ioError, "/s: I/O error: eio"),
    (
      .invalidSnapshot(.tooLarge(byteCount: 9, limit: 8)), .invalidSnapshot,
      "snapshot cannot be stored: input is 9 bytes, over the limit of 8"
    ),
    (.invalidSceneID("", reason: "empty"), .invalidSceneID, "invalid scene id: empty"),
    (.snapshotNotFound(scene: "A", id: 7), .snapshotNotFound, "no snapshot 7 in scene A"),
    (
      .replaced(path: "/s"), .replaced,
      "/s: the store file was deleted or replaced while open; nothing was written, and the "
        + "store reopened the file now at the path"
    ),
  ]

  @Test("each store error has its code, its path, and the line the CLI prints", arguments: errors)
  func errorText(error: StoreError, code: StoreError.Code, text: String) {
    #expect(error.code == code)
    #expect(error.description == text)
    #expect(error.path == (text.hasPrefix("/s: ") ? "/s" : nil))
    #expect(error.path.map { "\($0): \(error.message)" } ?? error.message == text)
  }

  @Test("a SQLite failure maps to the cause it names and keeps SQLite's error as the cause")
  func sqliteMapping() {
    let busy = StoreError(SQLiteError(code: .busy, message: "database is locked"), path: "/s")
    #expect(busy.code == .busy)
    #expect((busy.underlying as? SQLiteError)?.code == .busy)
    let other = StoreError(SQLiteError(code: .constraint, message: "UNIQUE failed"), path: "/s")
    #expect(other.code == .sqlite)
    #expect((other.underlying as? SQLiteError)?.message == "UNIQUE failed")
    let corrupt = StoreError(SQLiteError(code: .corrupt, message: "malformed"), path: "/s")
    #expect(corrupt.code == .corrupt && corrupt.detail == "malformed")
  }

  @Test("the store's reasons live in WaypointSQLite and read as they always did")
  func storeReasons() {
    let loop = DropReason.crashLoop(unconfirmedRestores: 2)
    #expect(loop.code == .crashLoop)
    #expect(loop.code.rawValue == "crashLoop")
    #expect(
      loop.description == "crash loop: restored 2 times without the app confirming, kept aside")
    let unavailable = DropReason.storeUnavailable("/s: disk full; nothing was written")
    #expect(unavailable.code == .storeUnavailable)
    #expect(unavailable.description == "store unavailable: /s: disk full; nothing was written")
    #expect(loop != unavailable && loop == .crashLoop(unconfirmedRestores: 2))
    #expect(
      DropReason.crashLoop(unconfirmedRestores: 1).description
        == "crash loop: restored 1 time without the app confirming, kept aside")
  }
}
