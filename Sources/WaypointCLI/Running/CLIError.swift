import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a command failed: its exit status and one line for stderr naming the file and the cause.
struct CLIError: Error, Hashable, Sendable {
  var exitCode: ExitCode
  /// One line: `<file>: <cause>`, or for usage errors what is wrong with the command line.
  var message: String

  /// A usage error found by a command in a value the parser accepted (`--keep x`).
  static func usage(_ message: String) -> CLIError { CLIError(exitCode: .usage, message: message) }

  /// The usage error for an action a command does not have, in the parser's words for an unknown
  /// command: `unknown action 'dif' (did you mean 'diff'?)`, or, with nothing close, what it takes
  /// (`unknown action 'show': expected 'diff'`).
  static func unknownAction(_ action: String, expected actions: [String]) -> CLIError {
    let given = "unknown action '\(Formatting.printable(action))'"
    if let suggestion = Suggestions.closest(to: action, in: actions) {
      return .usage(given + Suggestions.phrase(suggestion))
    }
    return .usage(given + ": expected " + actions.map { "'\($0)'" }.joined(separator: " or "))
  }

  /// Bad data in `file`, or bad data the store holds.
  static func data(_ message: String) -> CLIError {
    CLIError(exitCode: .dataError, message: message)
  }

  /// A store error, with the exit status its cause calls for. `store`, when given, names the store
  /// in front of the errors that do not name it themselves. `damageHint` is what a damaged store
  /// whose schema still reads is followed by: what to try.
  init(_ error: StoreError, store: String? = nil, damageHint: String = corruptHint) {
    message = error.description
    switch error.code {
    case .invalidSnapshot, .invalidSceneID, .snapshotNotFound:
      if let store { message = "\(store): \(message)" }
    case .corrupt:
      var oneLine = error
      if let path = error.path, let reason = SnapshotStore.unreadableFile(path: path) {
        // Refused whole by SQLite: every command says the same of the file, whatever it was
        // reading, and a file that is not SQLite at all needs no more words.
        oneLine.message =
          "corrupt store: \(Self.oneLine(reason))"
          + (reason == Self.notADatabase ? "" : "; " + Self.nothingReadable)
      } else {
        let detail = error.detail ?? ""
        oneLine.message =
          "corrupt store: \(Self.oneLine(detail))"
          + (detail == Self.notADatabase || damageHint.isEmpty ? "" : "; " + damageHint)
      }
      message = oneLine.description
    default:
      break
    }
    let sqlite = error.underlying as? SQLiteError
    exitCode =
      switch error.code {
      case .cannotOpen: .noInput
      case .notAWaypointStore, .newerSchema, .corrupt, .invalidSnapshot, .invalidSceneID,
        .snapshotNotFound:
        .dataError
      // The store reopened the file now at the path: running the command again works.
      case .busy, .replaced: .busy
      case .diskFull, .readOnly, .ioError: .ioError
      case .sqlite:
        switch sqlite?.code {
        case .busy, .locked: .busy
        // The file passed for a Waypoint store but its tables are not what Waypoint wrote (a
        // planted view in place of a table, a missing column): bad data, not a failing disk.
        case .error, .constraint, .tooBig, .corrupt, .notADatabase: .dataError
        default: .ioError
        }
      // A code added to the store later: a failure to read or write the file.
      default: .ioError
      }
    if error.code == .sqlite, let sqlite, let path = error.path {
      // SQLite's own words, without the statement that failed, which means nothing to users.
      message =
        exitCode == .dataError
        ? "\(path): not a usable Waypoint store: \(sqlite.message)"
        : "\(path): \(sqlite.message) (SQLite error \(sqlite.code.rawValue))"
    }
  }

  /// What to try with a store whose pages are damaged: see the damage, then copy what reads.
  static let corruptHint = "'waypoint check' lists the damage; " + recoverHint

  /// What `recover` does for a store whose pages are damaged.
  static let recoverHint =
    "'waypoint recover --output NEW.sqlite' copies every snapshot that can still be read into a "
    + "new store"

  /// What follows the cause for a file that SQLite refuses whole: no command, `recover` included,
  /// reads anything of it.
  static let nothingReadable = "nothing in it can be read"

  /// SQLite's words for a file that is not a database at all.
  static let notADatabase = "file is not a database"

  /// SQLite's multi-line integrity report on one line, without its `*** in database main ***`
  /// header.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && $0 != "*** in database main ***" }.joined(separator: "; ")
  }

  /// A snapshot or input that cannot be read, in `file` (a path, or a path and line: `f.jsonl:3`).
  init(_ error: SnapshotFormatError, in file: String) {
    self.init(exitCode: .dataError, message: "\(file): \(error)")
  }

  init(exitCode: ExitCode, message: String) {
    self.exitCode = exitCode
    self.message = message
  }

  /// Why a file operation failed, in the tool's words for its POSIX error code (`permission
  /// denied`, `not a directory`), never Foundation's sentence around it ("The operation could not
  /// be completed."). An error without a POSIX code keeps its own description.
  static func reason(_ error: any Error) -> String {
    if let code = posixCode(of: error) { return reason(errno: code) }
    return (error as NSError).localizedDescription
  }

  /// The tool's words for a POSIX error code: the C library's (`strerror`), in lower case as the
  /// rest of a message is (`permission denied`, `no space left on device`).
  static func reason(errno code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }

  /// The POSIX error code behind a Foundation error: its own (`POSIXError`, or an `NSError` of the
  /// POSIX domain), its underlying error's, or the one a Cocoa file error stands for.
  private static func posixCode(of error: any Error) -> Int32? {
    if let posix = error as? POSIXError { return posix.code.rawValue }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: error.code) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error,
      let code = posixCode(of: underlying)
    {
      return code
    }
    guard error.domain == NSCocoaErrorDomain else { return nil }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
    case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
    case .fileWriteOutOfSpace: return ENOSPC
    case .fileWriteVolumeReadOnly: return EROFS
    case .fileWriteFileExists: return EEXIST
    case .fileReadTooLarge: return EFBIG
    default: return nil
    }
  }
}
