import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StoreFile {
  /// Why the database file at `path` is shorter than its header says, or `nil`: the header's page
  /// size times its page count (when the header marks that count valid) against the file's
  /// length. Reads the first 100 bytes only; a file SQLite keeps in step never falls short, a
  /// truncated copy does.
  static func truncation(of path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
    guard count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
    func big(_ offset: Int, _ width: Int) -> UInt64 {
      header[offset..<offset + width].reduce(0) { $0 << 8 | UInt64($1) }
    }
    let rawPageSize = big(16, 2)
    let pageSize: UInt64 = rawPageSize == 1 ? 65_536 : rawPageSize
    let pages = big(28, 4)
    // The count is valid only when the change counter matches "version valid for".
    guard pageSize >= 512, pages > 0, big(24, 4) == big(92, 4) else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    let length = UInt64(clamping: Int64(info.st_size))
    let expected = pages.multipliedReportingOverflow(by: pageSize)
    guard !expected.overflow, expected.partialValue > length else { return nil }
    return "the file is \(length) bytes long, its header counts \(pages) pages of \(pageSize) bytes"
  }
}
