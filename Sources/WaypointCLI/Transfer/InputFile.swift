import Foundation

/// Input files named on the command line, opened with the exit statuses the tool promises: 66 for
/// a file that is missing, a directory or unreadable; 74 when reading fails; 65 when it is over
/// the limit.
enum InputFile {
  /// How messages name the input: the path, or `stdin` for `-`.
  static func name(_ path: String) -> String { path == "-" ? "stdin" : path }

  /// Opens a file for reading.
  static func open(_ path: String) throws(CLIError) -> FileHandle {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CLIError(exitCode: .noInput, message: "\(path): no such file")
    }
    guard !isDirectory.boolValue else {
      throw CLIError(exitCode: .noInput, message: "\(path): is a directory, not a file")
    }
    do {
      return try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    } catch {
      throw CLIError(exitCode: .noInput, message: "\(path): cannot open: \(CLIError.reason(error))")
    }
  }

  /// Reads the whole file, or stdin for `-`, refusing more than `limit` bytes.
  static func read(_ path: String, limit: Int, console: Console) throws(CLIError) -> Data {
    let data: Data
    do {
      if path == "-" {
        data = try console.readIn(limit)
      } else {
        let handle = try open(path)
        defer { try? handle.close() }
        data = try handle.read(upToCount: limit + 1) ?? Data()
      }
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError(
        exitCode: .ioError, message: "\(name(path)): cannot read: \(CLIError.reason(error))")
    }
    guard data.count <= limit else {
      throw .data("\(name(path)): input is over the limit of \(limit) bytes")
    }
    return data
  }

}
