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
  /// - Throws: ``CLIError``: exit 66 for a missing file (`read`, `write`) or a directory, 65 for an
  ///   empty file (whatever the mode: an empty file is never turned into a store); otherwise the
  ///   store's error with its exit status.
  func openStore(_ mode: StoreMode, path: String? = nil) throws(CLIError) -> SnapshotStore {
    let path = path ?? storePath
    try Self.checkStoreFile(path, mayBeMissing: mode == .create)
    do {
      return try SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false),
        access: mode == .read ? .readOnly : .readWrite)
    } catch {
      throw CLIError(error)
    }
  }

  /// The one rule for what stands at a store path, before SQLite opens it: a directory or (unless
  /// `mayBeMissing`) nothing exits 66; an empty file exits 65 for every command, reading or
  /// writing, so that no command turns a 0-byte file into a store.
  static func checkStoreFile(_ path: String, mayBeMissing: Bool) throws(CLIError) {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists, isDirectory.boolValue {
      throw CLIError(exitCode: .noInput, message: "\(path): is a directory, not a store file")
    }
    guard exists else {
      if mayBeMissing { return }
      throw CLIError(exitCode: .noInput, message: "\(path): no such file")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
    if size?.int64Value == 0 {
      throw .data("\(path): empty file (0 bytes), not a Waypoint store")
    }
  }

  /// Runs a store call, turning its error into the command's, which names the store even when
  /// the store's error does not (an unknown snapshot, a snapshot that cannot be stored).
  func store<T>(_ body: () throws(StoreError) -> T) throws(CLIError) -> T {
    do {
      return try body()
    } catch {
      throw CLIError(error, store: storePath)
    }
  }

  /// The error for a scene the store does not hold (exit 65), suggesting a close scene id.
  func noScene(_ id: String, in store: SnapshotStore) -> CLIError {
    let suggestion = Self.sceneSuggestion(for: id, in: store).best
    return .data(
      "\(store.path): no scene '\(Formatting.printable(id))'"
        + Formatting.printable(Suggestions.phrase(suggestion)))
  }

  /// The search for a scene id close to `id`, run over the store's scene index with bounded work
  /// (see ``Suggestions/Search``): ids of a length that cannot be close are filtered out by SQLite
  /// and no document is read. A store that cannot be read gives no suggestion.
  static func sceneSuggestion(for id: String, in store: SnapshotStore) -> Suggestions.Search {
    var search = Suggestions.Search(word: id)
    guard let lengths = search.lengths else { return search }
    try? store.forEachSceneID(lengths: lengths) { search.consider($0) }
    return search
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
