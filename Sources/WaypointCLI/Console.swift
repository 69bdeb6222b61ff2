import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the tool reads and writes: data and help to stdout, messages, errors and progress to
/// stderr, input from stdin, settings from the environment. Tests build their own to capture
/// everything and to pretend to be a terminal.
struct Console: Sendable {
  /// Writes bytes to stdout as they are.
  var writeOut: @Sendable (Data) -> Void
  /// Writes bytes to stderr as they are.
  var writeErr: @Sendable (Data) -> Void
  /// Writes out what stdout holds back, for a line that must be out before the work it announces
  /// goes on (a killed command has said what it did up to there).
  var flushOut: @Sendable () -> Void = {}
  /// Reads stdin to its end, or up to `limit` bytes (then returns `limit` + 1 bytes at most, so
  /// that the caller can tell the input was longer).
  var readIn: @Sendable (_ limit: Int) throws -> Data
  /// Reads the next bytes of stdin, at most `count`; empty at its end (`import -`, which streams
  /// stdin of any length).
  var readInChunk: @Sendable (_ count: Int) throws -> Data = { _ in Data() }
  /// Whether stdout is a terminal (colours, a final newline after raw output).
  var outIsTerminal: Bool
  /// Whether stderr is a terminal (progress).
  var errIsTerminal: Bool
  /// The environment (`WAYPOINT_DB`, `NO_COLOR`, `TERM`).
  var environment: [String: String]
  /// Whether `WAYPOINT_DB` is set to bytes that are not UTF-8 (left out of ``environment``): a
  /// command that would take the store from it refuses to run.
  var storeVariableIsUndecodable = false

  /// Writes a line to stdout.
  func out(_ line: String) { writeOut(Data((line + "\n").utf8)) }

  /// Writes a line to stderr.
  func err(_ line: String) { writeErr(Data((line + "\n").utf8)) }

  /// The process's own stdin, stdout, stderr and environment. Stdout is buffered when it is not a
  /// terminal (a command that writes a line per scene of a big store would otherwise make a system
  /// call per line); the buffer is written out before anything goes to stderr or is read from
  /// stdin, and by ``flush()`` before the process exits.
  static var standard: Console {
    let buffer = StandardOutput.shared
    // Read as Swift decodes it, a path in another encoding would name another file.
    let undecodable = getenv("WAYPOINT_DB").map { !WaypointTool.isUTF8($0) } ?? false
    return Console(
      writeOut: { buffer.write($0) },
      writeErr: { data in
        buffer.flush()
        try? FileHandle.standardError.write(contentsOf: data)
      },
      flushOut: { buffer.flush() },
      readIn: { limit in
        buffer.flush()
        var data = Data()
        while data.count <= limit,
          let chunk = try FileHandle.standardInput.read(upToCount: 64 << 10), !chunk.isEmpty
        {
          data.append(chunk)
        }
        return data.prefix(limit + 1)
      },
      readInChunk: { count in
        buffer.flush()
        return try FileHandle.standardInput.read(upToCount: count) ?? Data()
      },
      outIsTerminal: isatty(STDOUT_FILENO) == 1,
      errIsTerminal: isatty(STDERR_FILENO) == 1,
      environment: ProcessInfo.processInfo.environment.filter {
        $0.key != "WAYPOINT_DB" || !undecodable
      },
      storeVariableIsUndecodable: undecodable)
  }
}

/// The process's stdout, written through a buffer of 64 KiB when it is not a terminal.
final class StandardOutput: @unchecked Sendable {
  static let shared = StandardOutput(buffered: isatty(STDOUT_FILENO) != 1)

  private let lock = NSLock()
  private let buffered: Bool
  private var pending = Data()

  init(buffered: Bool) { self.buffered = buffered }

  func write(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    guard buffered else {
      try? FileHandle.standardOutput.write(contentsOf: data)
      return
    }
    pending.append(data)
    if pending.count >= 64 << 10 { writePending() }
  }

  /// Writes out what the buffer holds.
  func flush() {
    lock.lock()
    defer { lock.unlock() }
    writePending()
  }

  private func writePending() {
    guard !pending.isEmpty else { return }
    try? FileHandle.standardOutput.write(contentsOf: pending)
    pending.removeAll(keepingCapacity: true)
  }
}
