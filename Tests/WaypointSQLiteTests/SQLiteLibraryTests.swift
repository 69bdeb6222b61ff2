import Testing
import WaypointSQLite

@Suite("SQLite library")
struct SQLiteLibraryTests {
  @Test("the linked SQLite is at least 3.37 (STRICT tables, json1 and ->>)")
  func version() {
    #expect(SQLiteLibrary.versionNumber >= 3_037_000)
    let parts = SQLiteLibrary.version.split(separator: ".").compactMap { Int($0) }
    #expect(parts.count == 3)
    #expect(parts.first == 3)
    #expect(parts[1] * 1000 + parts[2] == SQLiteLibrary.versionNumber - 3_000_000)
  }
}
