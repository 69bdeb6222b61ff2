import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines from a file or stdin in chunks into one reused buffer, in constant memory: a line
/// over the limit is not kept but skipped to its newline, its bytes counted, and reported as such,
/// so that one huge line costs time but no memory and does not stop the reading.
struct RecordLines {
  /// Where the bytes come from.
  enum Source {
    /// A file opened for reading.
    case file(FileHandle)
    /// The console's stdin (`-`).
    case standardInput(Console)
  }

  /// What ``next()`` found.
  enum Line {
    /// A line within the limit, without its `\n` (and a `\r` before it): its number (from 1) and
    /// where its bytes are, for ``withBytes(of:_:)`` until the next call.
    case line(number: Int, range: Range<Int>)
    /// A line over the limit, skipped: its number and length in bytes.
    case tooLong(number: Int, bytes: Int)
  }

  /// How much one read asks for.
  static let chunkBytes = 1 << 20

  private let source: Source
  private let maxLineBytes: Int
  private let chunkBytes: Int
  /// The bytes read and not yet returned are `buffer[start..<end]`; the rest is room to read into.
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEnd = false
  /// In a line over the limit, the bytes of it skipped so far.
  private var skipped: Int?
  private var lineNumber = 0

  /// - Parameter chunkBytes: How much one read asks for (tests read in small chunks to cross
  ///   their boundaries).
  init(_ source: Source, maxLineBytes: Int, chunkBytes: Int = RecordLines.chunkBytes) {
    self.source = source
    self.maxLineBytes = max(1, maxLineBytes)
    self.chunkBytes = max(1, chunkBytes)
    // A line within the limit and a chunk after it always fit: the buffer never grows.
    buffer = [UInt8](repeating: 0, count: self.maxLineBytes + self.chunkBytes + 1)
  }

  /// The next line, or `nil` at the end of the input.
  ///
  /// - Throws: the reason the input could not be read (`errno`'s words).
  mutating func next() throws(CLIError) -> Line? {
    var searched = start
    while true {
      if let newline = firstNewline(from: searched) {
        lineNumber += 1
        defer { start = newline + 1 }
        if let skipped {
          self.skipped = nil
          return .tooLong(number: lineNumber, bytes: Self.sum(skipped, newline - start))
        }
        guard newline - start <= maxLineBytes else {
          return .tooLong(number: lineNumber, bytes: newline - start)
        }
        var last = newline
        if last > start, buffer[last - 1] == 0x0D { last -= 1 }
        return .line(number: lineNumber, range: start..<last)
      }
      // No newline in what is buffered: a line over the limit is dropped as it is read.
      if let skipped {
        self.skipped = Self.sum(skipped, end - start)
        start = end
      } else if end - start > maxLineBytes {
        skipped = end - start
        start = end
      }
      if atEnd {
        if let skipped {
          self.skipped = nil
          lineNumber += 1
          return .tooLong(number: lineNumber, bytes: skipped)
        }
        guard start < end else { return nil }
        lineNumber += 1
        var last = end
        if buffer[last - 1] == 0x0D { last -= 1 }
        defer { start = end }
        return .line(number: lineNumber, range: start..<last)
      }
      searched = end - start
      try fill()
    }
  }

  /// Runs `body` on the bytes of the line ``next()`` gave last (valid only during the call).
  func withBytes<Result>(of range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
    -> Result
  {
    buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  private static func sum(_ a: Int, _ b: Int) -> Int {
    let (total, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : total
  }

  /// The index of the first `\n` in `buffer[from..<end]`, or `nil`.
  private func firstNewline(from: Int) -> Int? {
    guard from < end else { return nil }
    return buffer.withUnsafeBytes { bytes -> Int? in
      guard let base = bytes.baseAddress, let found = memchr(base + from, 0x0A, end - from) else {
        return nil
      }
      return base.distance(to: UnsafeRawPointer(found))
    }
  }

  /// Moves the unread bytes to the start of the buffer and reads the next chunk after them; sets
  /// `atEnd` at the end of the input.
  private mutating func fill() throws(CLIError) {
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
    let wanted = min(chunkBytes, buffer.count - end)
    switch source {
    case .file(let handle):
      let descriptor = handle.fileDescriptor
      let offset = end
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
        guard code == EINTR else {
          throw CLIError(
            exitCode: .ioError, message: "cannot read: \(CLIError.reason(errno: code))")
        }
      }
    case .standardInput(let console):
      let chunk: Data
      do {
        chunk = try console.readInChunk(wanted)
      } catch {
        throw CLIError(exitCode: .ioError, message: "cannot read: \(CLIError.reason(error))")
      }
      guard !chunk.isEmpty else {
        atEnd = true
        return
      }
      let count = min(chunk.count, wanted)
      buffer.replaceSubrange(end..<(end + count), with: chunk.prefix(count))
      end += count
    }
  }
}
