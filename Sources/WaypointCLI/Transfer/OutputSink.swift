import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command streams its output: stdout, or a file that appears whole only when the command
/// succeeds (written to a temporary file beside it, with permissions 0600, then renamed over it).
/// Writes are buffered.
final class OutputSink {
  private let console: Console
  private let target: (path: String, temporary: String, handle: FileHandle)?
  private var buffer = Data()
  private static let flushSize = 64 << 10

  /// The sink for stdout.
  init(console: Console) {
    self.console = console
    target = nil
  }

  /// A sink for the file at `path`.
  ///
  /// - Throws: ``CLIError`` with exit 74 when the file cannot be created there.
  init(file path: String, console: Console) throws(CLIError) {
    self.console = console
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw CLIError(exitCode: .ioError, message: "\(path): is a directory, not a file")
    }
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CLIError(
        exitCode: .ioError, message: "\(path): cannot create: \(String(cString: strerror(errno)))")
    }
    target = (path, temporary, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
  }

  /// Where the output goes, for messages.
  var name: String { target?.path ?? "stdout" }

  func write(_ data: Data) throws(CLIError) {
    buffer.append(data)
    if buffer.count >= Self.flushSize { try flush() }
  }

  /// Writes what is buffered and, for a file, puts it in place.
  func finish() throws(CLIError) {
    try flush()
    guard let target else { return }
    do {
      try target.handle.synchronize()
      try target.handle.close()
    } catch {
      abandon()
      throw CLIError(exitCode: .ioError, message: "\(target.path): cannot write: \(error)")
    }
    guard rename(target.temporary, target.path) == 0 else {
      let reason = String(cString: strerror(errno))
      abandon()
      throw CLIError(exitCode: .ioError, message: "\(target.path): cannot write: \(reason)")
    }
  }

  /// Removes the temporary file of a command that failed.
  func abandon() {
    guard let target else { return }
    try? target.handle.close()
    unlink(target.temporary)
  }

  private func flush() throws(CLIError) {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard let target else {
      console.writeOut(buffer)
      return
    }
    do {
      try target.handle.write(contentsOf: buffer)
    } catch {
      throw CLIError(
        exitCode: .ioError, message: "\(target.path): cannot write: \(CLIError.reason(error))")
    }
  }
}
