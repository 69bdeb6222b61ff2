import Foundation
import WaypointSQLite
import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a command runs with: its parsed arguments, the console, and the store they name.
struct CommandContext {
  /// How a command opens the store.
  enum StoreMode {
    /// Read-only: the file must exist and is never written (`scenes`, `show`, `export`, …).
    case read
    /// Read-write: the file must exist (`rollback`, `discard`, `prune`, `repair`).
    case write
    /// Read-write on whatever stands at the path, which may be missing (`import`, `import-path`,
    /// through ``creatingStore(_:)``, which builds a missing store with ``build`` instead).
    case create
    /// Read-write, building a new store in the empty file this command has just created under a
    /// temporary name (``creatingStore(_:)``): the one empty file that is made into a store.
    case build
  }

  let command: CommandDeclaration
  let arguments: ParsedArguments
  let console: Console

  /// Whether `--json` was given.
  var json: Bool { self[GlobalOption.json] }

  /// The option's value, converted by its key (the parser has refused values it cannot convert);
  /// `nil` when the option was not given. For a repeatable option, the last value.
  subscript<Value>(key: OptionKey<Value>) -> Value? {
    arguments.value(key.name).flatMap(key.value)
  }

  /// The value of an option the command's table declares required, which the parser has made
  /// sure of.
  ///
  /// - Throws: the parser's usage error (exit 64), should the command read an option its table
  ///   does not require.
  func required<Value>(_ key: OptionKey<Value>) throws(CLIError) -> Value {
    guard let value = self[key] else {
      throw .usage("missing \(key.name) \(key.declaration.valueName ?? "")")
    }
    return value
  }

  /// Whether the flag was given.
  subscript(key: FlagKey) -> Bool { arguments.isSet(key.name) }

  /// The positional's value, or `nil` when it was not given.
  subscript(key: PositionalKey) -> String? { arguments.positional(key.declaration.valueName) }

  /// Every value of a repeatable positional, in the order given.
  func values(_ key: PositionalKey) -> [String] {
    arguments.positionalValues(key.declaration.valueName)
  }

  /// Colours for text on stdout.
  var style: Style { Style(for: console) }

  /// The store's path: `--db`, else `$WAYPOINT_DB`, else `waypoint.sqlite` in the current directory.
  var storePath: String {
    if let path = self[GlobalOption.db] { return path }
    if let path = console.environment["WAYPOINT_DB"], !path.isEmpty { return path }
    return "waypoint.sqlite"
  }

  /// Opens the store for the command (or the one at `path`). Never recovers a corrupt file: a tool
  /// must not move a user's file aside.
  ///
  /// - Throws: ``CLIError``: exit 66 for a missing file (`read`, `write`) or a directory, 65 for an
  ///   empty file (whatever the mode: an empty file is never turned into a store); otherwise the
  ///   store's error with its exit status.
  func openStore(_ mode: StoreMode, path: String? = nil) throws(CLIError) -> SnapshotStore {
    let path = path ?? storePath
    if mode != .build { try Self.checkStoreFile(path, mayBeMissing: mode == .create) }
    do {
      // A command that writes checks the whole file first (quick_check), which the store's
      // opening does not do by default: it must not write into a damaged file.
      return try SnapshotStore(
        path: path,
        configuration: StoreConfiguration(recoversCorruptFiles: false, integrityCheck: .onOpen),
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
    try OutputFile.checkStore(path, force: false, takesForce: false)
    let temporary = try OutputFile.emptyFile(beside: path)
    func build() throws(CLIError) -> T {
      let store = try openStore(.build, path: temporary)
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

  /// The one rule for what stands at a store path, before SQLite opens it: a directory, a file the
  /// user may not read or (unless `mayBeMissing`) nothing exits 66; an empty file exits 65 for
  /// every command, reading or writing, so that no command turns a 0-byte file into a store.
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
    // In the system's words, where SQLite would say only "unable to open database file".
    if access(path, R_OK) != 0 {
      throw CLIError(
        exitCode: .noInput, message: "\(path): cannot open: \(CLIError.reason(errno: errno))")
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
    noScenes([id], in: store)
  }

  /// Refuses, before anything is read or created, a scene id a command would write that the
  /// store's rule (``/WaypointSQLite/SceneID``) refuses: exit 65 with the reason, the id named as
  /// `what` names it (`--scene '': a scene id cannot be empty`).
  static func checkSceneID(_ id: String, named what: String) throws(CLIError) {
    if let reason = SceneID.problem(with: id) {
      throw .data("\(what) '\(Formatting.printable(id))': \(reason)")
    }
  }

  /// The most unknown scene ids one error names, each with its suggestion.
  static let maxUnknownScenesNamed = 10

  /// The error for scenes the store does not hold (exit 65), naming each (the first
  /// ``maxUnknownScenesNamed``) with a close scene id when there is one, then `consequence`:
  /// `STORE: no scene 'phnoe' (did you mean 'phone'?), no scene 'x'; nothing discarded`.
  func noScenes(_ ids: [String], in store: SnapshotStore, consequence: String? = nil) -> CLIError {
    var each = ids.prefix(Self.maxUnknownScenesNamed).map { id in
      "no scene '\(Formatting.printable(id))'"
        + Formatting.printable(Suggestions.phrase(Self.sceneSuggestion(for: id, in: store).best))
    }
    if ids.count > Self.maxUnknownScenesNamed {
      each.append("and \(ids.count - Self.maxUnknownScenesNamed) more unknown")
    }
    return .data(
      "\(store.path): " + each.joined(separator: ", ") + (consequence.map { "; " + $0 } ?? ""))
  }

  /// How many index entries on each side of a misspelt scene id are compared with it.
  static let suggestionWindow = 10_000

  /// The search for a scene id close to `id`, run over the store's scene index with bounded work
  /// (see ``Suggestions/Search``): only the ``suggestionWindow`` index entries on each side of
  /// `id` in the store's order of ids are read (all of them in a smaller store), ids of a length
  /// that cannot be close are filtered out by SQLite, and no document is read. In a larger store a
  /// misspelling near the start of an id may then go without suggestion. A store that cannot be
  /// read gives no suggestion.
  static func sceneSuggestion(for id: String, in store: SnapshotStore) -> Suggestions.Search {
    var search = Suggestions.Search(word: id)
    guard let lengths = search.lengths else { return search }
    try? store.forEachSceneID(lengths: lengths, near: id, window: suggestionWindow) {
      search.consider($0)
    }
    return search
  }

  /// Writes the command's one JSON document on stdout.
  func printJSON(_ value: some JSONWritable) {
    JSONOutput.write(value, to: console)
  }

  /// Reports something worth knowing that is not an error, on stderr.
  func note(_ message: String) {
    console.err("waypoint \(command.name): \(Formatting.printable(message))")
  }
}
