import Foundation
import Testing

@testable import WaypointSQLite

/// The cache of each scene's latest snapshot on its own: `update` lends an entry to its body
/// without keeping an access to the list open (the list's accesses are not checked at run time).
@Suite("Snapshot store: the cache of each scene's latest snapshot")
struct LatestSnapshotCacheTests {
  func entry(_ id: Int64) -> LatestSnapshotCache.Entry {
    LatestSnapshotCache.Entry(id: id, document: nil, quarantined: false, count: 1, saved: nil)
  }

  func key(_ scene: String) -> LatestSnapshotCache.Key { LatestSnapshotCache.Key(scene) }

  @Test(
    "update changes, keeps, forgets and adds entries, and puts the entry back when its body throws")
  func update() throws {
    let cache = LatestSnapshotCache()
    cache[key("A")] = entry(1)
    cache[key("B")] = entry(2)
    // Changed in place; the other scene untouched.
    try cache.update(key("A")) { latest throws(SQLiteError) in
      #expect(latest?.id == 1)
      latest?.id = 3
    }
    #expect(cache[key("A")]?.id == 3)
    #expect(cache[key("B")]?.id == 2)
    // A body that throws after changing the entry: the change stays, as it did in place.
    #expect(throws: SQLiteError.self) {
      try cache.update(key("B")) { latest throws(SQLiteError) in
        latest?.count = 7
        throw SQLiteError(code: .busy, message: nil, sql: nil)
      }
    }
    #expect(cache[key("B")]?.count == 7)
    // Set to nil: forgotten.
    try cache.update(key("A")) { latest throws(SQLiteError) in latest = nil }
    #expect(cache[key("A")] == nil)
    #expect(cache[key("B")]?.id == 2)
    // A scene without an entry gets one.
    try cache.update(key("C")) { latest throws(SQLiteError) in
      #expect(latest == nil)
      latest = entry(4)
    }
    #expect(cache[key("C")]?.id == 4)
  }

  @Test("scenes are told apart by their UTF-8 bytes: canonically equal ids are two scenes")
  func keysByBytes() {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(composed == decomposed)
    #expect(!key(composed).matches(key(decomposed)))
    #expect(key(composed).matches(key(String(decoding: Array(composed.utf8), as: UTF8.self))))
    #expect(!key("scene-1").matches(key("scene-10")))
    #expect(key("").matches(key("")))
    let cache = LatestSnapshotCache()
    cache[key(composed)] = entry(1)
    cache[key(decomposed)] = entry(2)
    #expect(cache[key(composed)]?.id == 1)
    #expect(cache[key(decomposed)]?.id == 2)
  }

  @Test(
    "a body that changes the list empties the cache rather than putting the entry in another scene's place"
  )
  func bodyChangesTheList() throws {
    let cache = LatestSnapshotCache()
    cache[key("A")] = entry(1)
    cache[key("B")] = entry(2)
    cache[key("C")] = entry(3)
    // B's place is 1; the body forgets A, so that C moves into it.
    try cache.update(key("B")) { latest throws(SQLiteError) in
      cache.forget(key("A"))
      latest?.id = 9
    }
    #expect(cache[key("C")]?.id != 9)
    #expect(cache[key("A")] == nil && cache[key("B")] == nil && cache[key("C")] == nil)
  }
}
