import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file line by line, holding at most one line (and one read chunk) in memory, with a
/// limit on the length of a line. Lines end with `\n`; a `\r` before it is dropped.
///
/// The file is read with `read(2)` in chunks of ``chunkBytes`` into one buffer that is reused for
/// the whole file (what is left of a chunk moves to its start), and lines are found with `memchr`.
struct LineReader {
  /// Why reading stopped.
  enum Failure: Error {
    /// The line with this number is longer than the limit.
    case lineTooLong(Int)
    /// The file could not be read.
    case unreadable(String)
  }

  /// How much one `read(2)` asks for.
  static let chunkBytes = 1 << 20

  private let handle: FileHandle
  private let maxLineBytes: Int
  private let chunkBytes: Int
  /// The bytes read and not yet returned are `buffer[start..<end]`; the rest is room to read into.
  private var buffer: [UInt8] = []
  private var start = 0
  private var end = 0
  private var atEnd = false
  private(set) var lineNumber = 0

  /// - Parameter chunkBytes: How much one read asks for (tests read in small chunks to cross
  ///   their boundaries).
  init(handle: FileHandle, maxLineBytes: Int, chunkBytes: Int = LineReader.chunkBytes) {
    self.handle = handle
    self.maxLineBytes = maxLineBytes
    self.chunkBytes = max(1, chunkBytes)
  }

  /// The next line and its number (from 1), or `nil` at the end of the file.
  mutating func next() throws(Failure) -> (number: Int, bytes: Data)? {
    guard let (number, range) = try nextRange() else { return nil }
    return (number, withBytes(of: range) { Data($0) })
  }

  /// The next line as ``next()`` finds it, left in the reader's buffer: its number and where its
  /// bytes are, for ``withBytes(of:_:)`` until the next call. No copy of the line is made.
  mutating func nextRange() throws(Failure) -> (number: Int, range: Range<Int>)? {
    var searched = start
    while true {
      if let newline = Self.firstNewline(in: buffer, from: searched, to: end) {
        lineNumber += 1
        guard newline - start <= maxLineBytes else { throw .lineTooLong(lineNumber) }
        var last = newline
        if last > start, buffer[last - 1] == 0x0D { last -= 1 }
        let line = start..<last
        start = newline + 1
        return (lineNumber, line)
      }
      guard end - start <= maxLineBytes else { throw .lineTooLong(lineNumber + 1) }
      if atEnd {
        guard start < end else { return nil }
        lineNumber += 1
        let line = start..<end
        start = end
        return (lineNumber, line)
      }
      searched = end - start
      try fill()
    }
  }

  /// Runs `body` on the bytes of a line that ``nextRange()`` gave last (valid only during the
  /// call).
  func withBytes<Result>(of range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Result)
    -> Result
  {
    buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  /// The index of the first `\n` in `buffer[from..<to]`, or `nil`.
  private static func firstNewline(in buffer: [UInt8], from: Int, to: Int) -> Int? {
    guard from < to else { return nil }
    return buffer.withUnsafeBytes { bytes -> Int? in
      guard let base = bytes.baseAddress,
        let found = memchr(base + from, 0x0A, to - from)
      else { return nil }
      return base.distance(to: UnsafeRawPointer(found))
    }
  }

  /// Moves the unread bytes to the start of the buffer and reads the next chunk after them
  /// (growing the buffer when a line is longer than what it holds); sets `atEnd` at the end of
  /// the file.
  private mutating func fill() throws(Failure) {
    if start > 0 {
      let count = end - start
      if count > 0 {
        buffer.withUnsafeMutableBytes { bytes in
          guard let base = bytes.baseAddress else { return }
          memmove(base, base + start, count)
        }
      }
      start = 0
      end = count
    }
    if buffer.count - end < chunkBytes {
      buffer.append(contentsOf: repeatElement(0, count: end + chunkBytes - buffer.count))
    }
    let descriptor = handle.fileDescriptor
    let offset = end
    let wanted = chunkBytes
    while true {
      let count = buffer.withUnsafeMutableBytes { bytes -> Int in
        guard let base = bytes.baseAddress else { return 0 }
        return read(descriptor, base + offset, wanted)
      }
      if count > 0 {
        end += count
        return
      }
      if count == 0 {
        atEnd = true
        return
      }
      let code = errno
      guard code == EINTR else { throw .unreadable(CLIError.reason(errno: code)) }
    }
  }
}
