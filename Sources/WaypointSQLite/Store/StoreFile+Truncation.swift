import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StoreFile {
  /// Why the database file at `path` is shorter than the `pages` pages of `pageSize` bytes its
  /// connection reads it as (`PRAGMA page_count`, which SQLite takes from the file's header when
  /// the header marks its count valid), or `nil`. Only when no `-wal` file with frames stands
  /// beside it: committed pages may live in the WAL alone, beyond the end of the file.
  ///
  /// Looks with `stat` only: opening and closing a descriptor of a file that SQLite has open would
  /// release the POSIX locks the process's connections hold on it.
  package static func truncation(of path: String, pages: Int64, pageSize: Int64) -> String? {
    let target = target(of: path)
    var info = stat()
    // A WAL header is 32 bytes; anything more holds frames.
    if stat(target + "-wal", &info) == 0 && info.st_size > 32 { return nil }
    guard stat(target, &info) == 0, pages > 0, pageSize > 0 else { return nil }
    let length = Int64(info.st_size)
    let expected = pages.multipliedReportingOverflow(by: pageSize)
    guard !expected.overflow, expected.partialValue > length else { return nil }
    return "the file is \(length) bytes long, its header counts \(pages) pages of \(pageSize) bytes"
  }
}
