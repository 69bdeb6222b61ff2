import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command streams its output: stdout, or a file created by the rule of ``OutputFile``
/// (never the store, never an existing file without `--force`, written to a temporary file beside
/// it and renamed into place only when the command succeeds), or a pipe or device such as
/// `/dev/stdout`, written into directly. Writes are buffered.
///
/// A file is synchronised to the disk before it is put in place. So that this last `fsync` does
/// not wait for the whole file to be written out (0.13–0.26 s of a 60 MB export here, a third of
/// its time), what is written is synchronised in the background as the output grows, every
/// ``backgroundSyncSize`` bytes, one `fsync` at a time, while the command goes on; the last `fsync`
/// waits for that one and then writes out what is left.
final class OutputSink {
  private let console: Console
  /// The file, and the temporary file it is written to (`nil` for a pipe or a device).
  private let target: (path: String, temporary: String?, handle: FileHandle, force: Bool)?
  private var buffer: [UInt8] = []
  private static let flushSize = 1 << 20
  /// Bytes written between two background synchronisations of a file.
  static let backgroundSyncSize = 8 << 20
  private var unsynchronised = 0
  /// Free while no background `fsync` runs.
  private let syncing = DispatchSemaphore(value: 1)
  /// The error of a background `fsync` (Linux reports a write-back error to one `fsync` of a
  /// descriptor only, so it must not be lost).
  private let backgroundError = SyncError()
  private let syncQueue = DispatchQueue(label: "waypoint.output-sink.sync")

  /// The sink for stdout.
  init(console: Console) {
    self.console = console
    target = nil
  }

  /// A sink for the file at `path`, created with permissions `mode` (less the umask).
  ///
  /// - Parameters:
  ///   - force: whether an existing file at `path` may be replaced.
  ///   - store: the store the command reads, which is never written over.
  /// - Throws: ``CLIError``: 73 when ``OutputFile`` refuses the path, 74 when the file cannot be
  ///   created there.
  init(
    file path: String, console: Console, force: Bool, store: String?, mode: mode_t = 0o600
  ) throws(CLIError) {
    self.console = console
    try OutputFile.check(path, force: force, store: store)
    if OutputFile.isStream(path) {
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw CLIError(
          exitCode: .ioError, message: "\(path): cannot open: \(CLIError.reason(errno: errno))")
      }
      target = (path, nil, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), force)
      return
    }
    let (temporary, descriptor) = try OutputFile.temporary(beside: path, mode: mode)
    target = (path, temporary, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), force)
  }

  /// Where the output goes, for messages.
  var name: String { target?.path ?? "stdout" }

  func write(_ data: Data) throws(CLIError) {
    data.withUnsafeBytes { buffer.appendBytes($0) }
    if buffer.count >= Self.flushSize { try flush() }
  }

  /// Writes `bytes` as ``write(_:)`` writes data, without making a `Data` of them first.
  func write(bytes: [UInt8]) throws(CLIError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.flushSize { try flush() }
  }

  /// Writes what `body` appends to the buffer it is given (the sink's own, so that the bytes are
  /// not copied from another buffer first); when `body` returns `false`, what it appended is
  /// dropped and nothing is written.
  func write(appending body: (inout [UInt8]) -> Bool) throws(CLIError) {
    let mark = buffer.count
    if !body(&buffer) { buffer.removeSubrange(mark...) }
    if buffer.count >= Self.flushSize { try flush() }
  }

  /// Writes what is buffered and, for a file, puts it in place.
  func finish() throws(CLIError) {
    try flush()
    guard let target else { return }
    waitForBackgroundSync()
    if let code = backgroundError.code {
      abandon()
      throw CLIError(
        exitCode: .ioError,
        message: "\(target.path): cannot write: \(CLIError.reason(errno: code))")
    }
    do {
      if target.temporary != nil { try target.handle.synchronize() }
      try target.handle.close()
    } catch {
      abandon()
      throw CLIError(
        exitCode: .ioError, message: "\(target.path): cannot write: \(CLIError.reason(error))")
    }
    guard let temporary = target.temporary else { return }
    try OutputFile.place(temporary, at: target.path, replacing: target.force)
  }

  /// Removes the temporary file of a command that failed.
  func abandon() {
    guard let target else { return }
    waitForBackgroundSync()
    try? target.handle.close()
    if let temporary = target.temporary { unlink(temporary) }
  }

  private func flush() throws(CLIError) {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard let target else {
      console.writeOut(Data(buffer))
      return
    }
    do {
      // Handed over as a `Data` over the buffer's own bytes: an array would be copied.
      try buffer.withUnsafeMutableBytes { bytes in
        guard let base = bytes.baseAddress else { return }
        try target.handle.write(
          contentsOf: Data(bytesNoCopy: base, count: bytes.count, deallocator: .none))
      }
    } catch {
      throw CLIError(
        exitCode: .ioError, message: "\(target.path): cannot write: \(CLIError.reason(error))")
    }
    guard target.temporary != nil else { return }
    unsynchronised += buffer.count
    // A head start for the last fsync; skipped while the previous one still runs.
    if unsynchronised >= Self.backgroundSyncSize, syncing.wait(timeout: .now()) == .success {
      unsynchronised = 0
      let descriptor = target.handle.fileDescriptor
      let (syncing, failure) = (syncing, backgroundError)
      syncQueue.async {
        if fsync(descriptor) != 0, failure.code == nil { failure.code = errno }
        syncing.signal()
      }
    }
  }

  /// Waits until no background `fsync` runs (before the file is synchronised and closed).
  private func waitForBackgroundSync() {
    syncing.wait()
    syncing.signal()
  }
}

/// The `errno` of a failed background `fsync`: written on the sync queue before the semaphore is
/// signalled, read after it is waited for (the semaphore orders the two).
private final class SyncError: @unchecked Sendable {
  var code: Int32?
}
