import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines from a file or stdin, holding at most one line and one read chunk: the input is
/// read in chunks of ``chunkBytes`` into one buffer reused to the end (what is left of a chunk moves
/// to its start), and lines are found with `memchr`. Lines end with `\n`, a `\r` before it dropped.
/// A line over the limit is not kept but read past to its newline, its bytes counted, and reported
/// as such (``nextLine()``) or as an error (``nextRange()``): one huge line costs time, not memory.
struct LineReader {
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
  private var buffer: [UInt8] = []
  private var start = 0
  private var end = 0
  private var atEnd = false
  /// In a line over the limit, the bytes of it skipped so far.
  private var skipped: Int?
  private var lineNumber = 0

  /// - Parameter chunkBytes: How much one read asks for (tests read in small chunks to cross
  ///   their boundaries).
  init(_ source: Source, maxLineBytes: Int, chunkBytes: Int = LineReader.chunkBytes) {
    self.source = source
    self.maxLineBytes = max(1, maxLineBytes)
    self.chunkBytes = max(1, chunkBytes)
  }

  /// A reader of the file `handle`.
  init(handle: FileHandle, maxLineBytes: Int, chunkBytes: Int = LineReader.chunkBytes) {
    self.init(.file(handle), maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
  }

  /// Why reading stopped.
  enum Failure: Error {
    /// The line with this number is longer than the limit.
    case lineTooLong(Int)
    /// The input could not be read.
    case unreadable(String)
  }

  /// The next line within the limit, its number (from 1) and where its bytes are, for
  /// ``withBytes(of:_:)`` until the next call; `nil` at the end of the input. For readers that
  /// stop at a line over the limit (`import`).
  /// A line over the limit stops the reading as soon as it is over, without reading on to its end
  /// (which an endless input, such as `/dev/zero`, never reaches).
  mutating func nextRange() throws(Failure) -> (number: Int, range: Range<Int>)? {
    let line = try nextLine(stoppingAtLongLine: true)
    switch line {
    case nil: return nil
    case .line(let number, let range)?: return (number, range)
    case .tooLong(let number, _)?: throw .lineTooLong(number)
    }
  }

  /// ``nextRange()``'s line, copied.
  mutating func next() throws(Failure) -> (number: Int, bytes: Data)? {
    guard let (number, range) = try nextRange() else { return nil }
    return (number, withBytes(of: range) { Data($0) })
  }

  /// The next line, or `nil` at the end of the input: a line within the limit, or the number and
  /// length of one over it, skipped (`stoppingAtLongLine`: the length read when it went over, the
  /// rest of it unread).
  ///
  /// - Throws: ``Failure/unreadable(_:)``: the reason the input could not be read.
  mutating func nextLine(stoppingAtLongLine: Bool = false) throws(Failure) -> Line? {
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
        if stoppingAtLongLine {
          lineNumber += 1
          return .tooLong(number: lineNumber, bytes: end - start)
        }
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
        // A last line without a newline is kept whole: a `\r` ends a line only before a `\n`.
        defer { start = end }
        return .line(number: lineNumber, range: start..<end)
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
    // Room for a chunk after what is kept: at most a line within the limit (a longer one is
    // dropped as it is read), so the buffer stays within the limit and a chunk.
    if buffer.count - end < chunkBytes {
      buffer.append(contentsOf: repeatElement(0, count: end + chunkBytes - buffer.count))
    }
    let wanted = chunkBytes
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
          throw .unreadable(CLIError.reason(errno: code))
        }
      }
    case .standardInput(let console):
      let chunk: Data
      do {
        chunk = try console.readInChunk(wanted)
      } catch {
        throw .unreadable(CLIError.reason(error))
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
