import Foundation
import WaypointSQLite

/// What the 100-byte header of a SQLite file says of its length, read without SQLite
/// ([the database header](https://sqlite.org/fileformat2.html#the_database_header)): SQLite
/// refuses a file shorter than its header counts (or than its header) as a whole, and calls it
/// only "malformed"; this says how short it is.
struct StoreFileHeader {
  /// The header's size, and the shortest a SQLite file with pages can be.
  static let size = 100

  /// The file's length in bytes.
  var length: Int64
  /// The page size, bytes 16–17 (1 stands for 65536); `nil` when the file is too short for it.
  var pageSize: Int64?
  /// The page count, bytes 28–31, when the header marks it valid: nonzero, and the change counter
  /// (bytes 24–27) equal to the version it is valid for (bytes 92–95). `nil` otherwise, when SQLite
  /// itself counts the pages from the file's length.
  var pageCount: Int64?

  /// Reads the header of the file at `path`; `nil` when it cannot be read.
  ///
  /// Opening and closing a descriptor releases the POSIX locks the process's SQLite connections
  /// hold on the file: only for a file no connection of the process could read.
  init?(path: String) {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let end = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
      let bytes = try? handle.read(upToCount: Self.size)
    else { return nil }
    let header = [UInt8](bytes)
    length = Int64(end)
    func number(_ offset: Int, _ count: Int) -> Int64? {
      guard header.count >= offset + count else { return nil }
      return header[offset..<offset + count].reduce(0) { $0 << 8 | Int64($1) }
    }
    pageSize = number(16, 2).map { $0 == 1 ? 65536 : $0 }
    if let count = number(28, 4), count > 0, let counter = number(24, 4),
      counter == number(92, 4)
    {
      pageCount = count
    }
  }

  /// Why the file at `path` is too short for its header, in the store's words (`the file is 8192
  /// bytes long, its header counts 8 pages of 4096 bytes`); `nil` when it is not, or when a `-wal`
  /// file with frames stands beside it (whose pages may lie beyond the file's end).
  func truncation(of path: String) -> String? {
    if length < Int64(Self.size) {
      return "the file is \(length) bytes long, cut inside its \(Self.size)-byte header"
    }
    guard let pageCount, let pageSize else { return nil }
    return StoreFile.truncation(of: path, pages: pageCount, pageSize: pageSize)
  }
}
