import Foundation
import WaypointSQLite

/// What a command runs with: its parsed arguments, the console, and the store they name.
struct CommandContext {
  /// How a command opens the store.
  enum StoreMode {
    /// Read-only: the file must exist and is never written (`scenes`, `show`, `export`, …).
    case read
    /// Read-write: the file must exist (`rollback`, `discard`, `prune`).
    case write
    /// Read-write, creating the store when the file does not exist (`import`, `import-path`).
    case create
  }

  let command: CommandDeclaration
  let arguments: ParsedArguments
  let console: Console

  /// Whether `--json` was given.
  var json: Bool { arguments.isSet(GlobalOption.json) }

  /// Colours for text on stdout.
  var style: Style { Style(for: console) }

  /// The store's path: `--db`, else `$WAYPOINT_DB`, else `waypoint.sqlite` in the current directory.
  var storePath: String {
    if let path = arguments.value(GlobalOption.db) { return path }
    if let path = console.environment["WAYPOINT_DB"], !path.isEmpty { return path }
    return "waypoint.sqlite"
  }

  /// Opens the store for the command (or the one at `path`). Never recovers a corrupt file: a tool must not move a
  /// user's file aside.
  ///
  /// - Throws: ``CLIError``: exit 66 for a missing file (`read`, `write`) or a directory; otherwise
  ///   the store's error with its exit status.
  func openStore(_ mode: StoreMode, path: String? = nil) throws(CLIError) -> SnapshotStore {
    let path = path ?? storePath
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists, isDirectory.boolValue {
      throw CLIError(exitCode: .noInput, message: "\(path): is a directory, not a store file")
    }
    if !exists, mode != .create {
      throw CLIError(exitCode: .noInput, message: "\(path): no such file")
    }
    do {
      return try SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false),
        access: mode == .read ? .readOnly : .readWrite)
    } catch {
      throw CLIError(error)
    }
  }

  /// Runs `body` on the command's store, opened read-write. When no file is there, the new store
  /// is made by the rule of ``OutputFile``: refused (exit 73) when a symbolic link or a journal
  /// left by another store stands at the path, built under a temporary name beside it, and renamed
  /// into place only when `body` returns, so that a failed command leaves no store behind. Errors
  /// name the store's path, never the temporary one.
  ///
  /// - Parameter body: gets the store and whether it is new.
  func creatingStore<T>(_ body: (SnapshotStore, _ created: Bool) throws(CLIError) -> T)
    throws(CLIError) -> T
  {
    let path = storePath
    switch OutputFile.existing(path) {
    case .file, .directory:
      return try body(try openStore(.create), false)
    case .link where OutputFile.Identity(path) != nil:
      return try body(try openStore(.create), false)
    case .link:
      throw CLIError(
        exitCode: .cantCreate,
        message: "\(path): is a symbolic link to nothing; a new store is not created through it")
    case .nothing:
      break
    }
    try OutputFile.checkStore(path, force: false)
    let temporary = try OutputFile.emptyFile(beside: path)
    func build() throws(CLIError) -> T {
      let store = try openStore(.create, path: temporary)
      return try body(store, true)
    }
    let result: T
    do {
      // The store is closed when build returns, before it is put in place.
      result = try build()
    } catch {
      OutputFile.discard(temporary)
      throw CLIError(
        exitCode: error.exitCode,
        message: error.message.replacingOccurrences(of: temporary, with: path))
    }
    try OutputFile.place(temporary, at: path, replacing: false)
    return result
  }

  /// Runs a store call, turning its error into the command's.
  func store<T>(_ body: () throws(StoreError) -> T) throws(CLIError) -> T {
    do {
      return try body()
    } catch {
      throw CLIError(error)
    }
  }

  /// The error for a scene the store does not hold (exit 65), suggesting a close scene id.
  func noScene(_ id: String, in store: SnapshotStore) -> CLIError {
    let known = (try? store.scenes().map(\.id)) ?? []
    return .data(
      "\(store.path): no scene '\(Formatting.printable(id))'"
        + Formatting.printable(Suggestions.didYouMean(id, in: known)))
  }

  /// Writes the command's one JSON document on stdout.
  func printJSON(_ value: some Encodable) throws(CLIError) {
    try JSONOutput.write(value, to: console)
  }

  /// Reports something worth knowing that is not an error, on stderr.
  func note(_ message: String) {
    console.err("waypoint \(command.name): \(Formatting.printable(message))")
  }
}
