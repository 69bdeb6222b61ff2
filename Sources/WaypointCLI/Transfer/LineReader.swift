import Foundation

/// Reads a file line by line, holding at most one line (and one read chunk) in memory, with a
/// limit on the length of a line. Lines end with `\n`; a `\r` before it is dropped.
struct LineReader {
  /// Why reading stopped.
  enum Failure: Error {
    /// The line with this number is longer than the limit.
    case lineTooLong(Int)
    /// The file could not be read.
    case unreadable(String)
  }

  private let handle: FileHandle
  private let maxLineBytes: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  private(set) var lineNumber = 0

  init(handle: FileHandle, maxLineBytes: Int) {
    self.handle = handle
    self.maxLineBytes = maxLineBytes
  }

  /// The next line and its number (from 1), or `nil` at the end of the file.
  mutating func next() throws(Failure) -> (number: Int, bytes: Data)? {
    var searched = start
    while true {
      if let newline = buffer[searched...].firstIndex(of: 0x0A) {
        lineNumber += 1
        guard newline - start <= maxLineBytes else { throw .lineTooLong(lineNumber) }
        var end = newline
        if end > start, buffer[end - 1] == 0x0D { end -= 1 }
        let line = Data(buffer[start..<end])
        start = newline + 1
        return (lineNumber, line)
      }
      guard buffer.count - start <= maxLineBytes else { throw .lineTooLong(lineNumber + 1) }
      if atEnd {
        guard start < buffer.count else { return nil }
        lineNumber += 1
        let line = Data(buffer[start...])
        start = buffer.count
        return (lineNumber, line)
      }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      searched = buffer.count
      do {
        let chunk = try handle.read(upToCount: 64 << 10) ?? Data()
        if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
      } catch {
        throw .unreadable(error.localizedDescription)
      }
    }
  }
}
