import Foundation
import Testing

@testable import WaypointSQLite
@testable import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A helper process whose stdout is read line by line, keeping a partial line for the next read.
final class HelperRun {
  let process: Process
  private let output: FileHandle
  private var buffer = Data()
  private(set) var lines: [String] = []

  init(_ arguments: [String]) throws {
    (process, output) = try startHelper(arguments)
  }

  /// Reads until at least `count` lines came, or the output ended.
  func waitForLines(_ count: Int) {
    while lines.count < count {
      let chunk = output.availableData
      if chunk.isEmpty { return }
      take(chunk)
    }
  }

  /// Waits for the process to end and reads everything it printed.
  func finish() {
    while true {
      let chunk = output.availableData
      if chunk.isEmpty { break }
      take(chunk)
    }
    process.waitUntilExit()
  }

  /// Kills the process with SIGKILL, then reads everything it printed before it died.
  func kill() {
    _ = sendSignal(process.processIdentifier, SIGKILL)
    finish()
  }

  /// Whether the process died of a signal (rather than exiting).
  var wasKilled: Bool { process.terminationReason == .uncaughtSignal }

  /// The saves an `ack-save` helper acknowledged in its lines so far, by snapshot id; `unexpected`
  /// is given each line that is not an acknowledgement.
  func acknowledgedSaves(unexpected: (String) -> Void) -> [Int64: Data] {
    var acknowledged: [Int64: Data] = [:]
    for line in lines {
      let parts = line.split(separator: " ")
      guard parts.count == 3, parts[0] == "ack", let id = Int64(parts[1]),
        let document = Data(base64Encoded: String(parts[2]))
      else {
        unexpected(line)
        continue
      }
      acknowledged[id] = document
    }
    return acknowledged
  }

  private func take(_ chunk: Data) {
    buffer.append(chunk)
    while let newline = buffer.firstIndex(of: 0x0A) {
      lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
      buffer.removeSubrange(buffer.startIndex...newline)
    }
  }
}

/// `kill(2)`, under a name the `HelperRun.kill()` method does not hide.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }

/// A count from the environment (for the long forms of the process suites), or `fallback`.
func environmentCount(_ name: String, default fallback: Int) -> Int {
  ProcessInfo.processInfo.environment[name].flatMap { Int($0) }.map { max(1, $0) } ?? fallback
}

/// How long a helper run takes from start to exit, in microseconds.
func measureHelper(_ arguments: [String]) throws -> UInt32 {
  let started = ContinuousClock.now
  let run = try HelperRun(arguments)
  run.finish()
  let elapsed = ContinuousClock.now - started
  let (seconds, attoseconds) = elapsed.components
  return UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
}

/// Copies a store file (closed, so it has no `-wal`) to a new path.
func copyStore(_ source: String, to destination: String) throws {
  for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: destination + suffix)
  }
  try FileManager.default.copyItem(atPath: source, toPath: destination)
}

/// Every stored snapshot's document, by id.
func storedDocuments(_ store: SnapshotStore) throws -> [Int64: Data] {
  var documents: [Int64: Data] = [:]
  try store.forEachSnapshot { stored in
    documents[stored.info.id] = stored.document.data
    return true
  }
  return documents
}

/// `PRAGMA integrity_check` through the store's own connection.
func integrityCheck(_ store: SnapshotStore) throws -> String? {
  try store.withDatabase { db throws(SQLiteError) in
    try db.scalar("PRAGMA integrity_check") { $0.text() } ?? nil
  }
}
