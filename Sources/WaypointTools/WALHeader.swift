import Foundation
import Waypoint
import WaypointSQLite

/// The 32-byte header of a SQLite `-wal` file, checked the way SQLite checks it when it opens the
/// WAL (see sqlite.org/fileformat2.html#walformat): magic, version and the header's checksum.
///
/// SQLite reports nothing when a WAL's header is damaged: it ignores the whole file, and the commits
/// it held are gone once a writer starts the WAL afresh. Reading the header first is as far as a
/// reader can tell.
enum WALHeader {
  /// Why SQLite will ignore the `-wal` file beside `path`, or `nil` when there is none, it is
  /// empty, or its header is sound.
  static func problem(beside path: String) -> String? {
    let wal = StoreFile.target(of: path) + "-wal"
    guard let handle = FileHandle(forReadingAtPath: wal) else { return nil }
    defer { try? handle.close() }
    let size = (try? handle.seekToEnd()) ?? 0
    guard size > 0 else { return nil }
    try? handle.seek(toOffset: 0)
    let header = [UInt8]((try? handle.read(upToCount: 32)) ?? Data())
    let lost = "SQLite ignores its \(size) bytes, so the commits in it are lost"
    guard header.count == 32 else { return "the WAL file is shorter than its header: \(lost)" }
    let magic = word(header, 0, bigEndian: true)
    guard magic == 0x377F_0682 || magic == 0x377F_0683 else {
      return "the WAL file's header is damaged (bad magic number): \(lost)"
    }
    guard word(header, 4, bigEndian: true) == 3_007_000 else {
      return "the WAL file's header is damaged (unknown version): \(lost)"
    }
    // The checksum of the first 24 bytes, in the byte order the magic number names.
    let bigEndian = magic & 1 == 1
    var s1: UInt32 = 0
    var s2: UInt32 = 0
    for offset in stride(from: 0, to: 24, by: 8) {
      s1 = s1 &+ word(header, offset, bigEndian: bigEndian) &+ s2
      s2 = s2 &+ word(header, offset + 4, bigEndian: bigEndian) &+ s1
    }
    guard s1 == word(header, 24, bigEndian: true), s2 == word(header, 28, bigEndian: true) else {
      return "the WAL file's header is damaged (bad checksum): \(lost)"
    }
    return nil
  }

  private static func word(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
    let value = bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return bigEndian ? value : value.byteSwapped
  }
}
