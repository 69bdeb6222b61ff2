import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `waypoint import FILE`: reads `export`'s JSON Lines back as new snapshots.
enum ImportCommand: WaypointCommand {
  static let file = PositionalKey("FILE", help: "The JSON Lines file to read; - reads stdin.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "import",
      summary: "Read JSON Lines written by 'waypoint export' into the store as new snapshots.",
      discussion: [
        "All or nothing: the snapshots are written in one transaction, and a malformed line "
          + "exits 65 naming its line number with nothing written. Every line is checked before an "
          + "existing store is opened; a new store is built under a temporary name as the lines are "
          + "read, and put in place only when all of them are in. Each snapshot gets a new id and keeps its scene, document and "
          + "quarantine mark; nothing is deduplicated or trimmed. Creates the store if nothing "
          + "stands at its path. With -, stdin is first copied to a temporary file (0600), read "
          + "twice like a file, and removed."
      ],
      positionals: [file.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let given = context[file] ?? ""
    guard given == "-" else { return try run(context, path: given, name: given) }
    let spool = try spoolStandardInput(context.console, limits: StoreConfiguration().limits)
    defer { try? FileManager.default.removeItem(atPath: spool) }
    return try run(context, path: spool, name: InputFile.name(given))
  }

  /// Imports the JSON Lines file at `path`, which messages call `name`.
  private static func run(_ context: CommandContext, path: String, name: String)
    throws(CLIError) -> ExitCode
  {
    // What stands at the store path is judged first, even when the input holds nothing.
    try CommandContext.checkStoreFile(context.storePath, mayBeMissing: true)
    let limits = StoreConfiguration().limits
    // A new store is built in one pass; it is put in place only if every line is in.
    if OutputFile.existing(context.storePath) == .nothing {
      return try runCreating(context, path: path, name: name, limits: limits)
    }
    let progress = Progress(console: context.console, label: "checking \(name)")
    let count = try readLines(path, name: name, limits: limits, progress: progress) { _ in true }
    progress.finish()
    guard count > 0 else {
      context.note("\(name) holds no snapshots; nothing imported")
      if context.json { context.printJSON(ImportJSON(store: context.storePath)) }
      return .ok
    }
    let result = try context.creatingStore { (store, created) throws(CLIError) in
      try insert(
        path, name: name, count: count, limits: limits, into: store, created: created,
        context: context)
    }
    report(result, context)
    return .ok
  }

  /// Imports into a store that does not exist yet, reading the file once: the store is built under
  /// a temporary name while the lines are read and inserted in one transaction, and is put in
  /// place only when every line is in. What the two passes of an existing store report, this
  /// reports too: a file without snapshots creates nothing, and a malformed line anywhere in the
  /// file is the error, even when the store failed first (the rest of the file is then read for it).
  private static func runCreating(
    _ context: CommandContext, path: String, name: String, limits: InputLimits
  ) throws(CLIError) -> ExitCode {
    let progress = Progress(console: context.console, label: "importing")
    defer { progress.finish() }
    var lines = try Lines(path, name: name, limits: limits, progress: progress)
    defer { lines.close() }
    guard let first = try lines.next() else {
      context.note("\(name) holds no snapshots; nothing imported")
      if context.json { context.printJSON(ImportJSON(store: context.storePath)) }
      return .ok
    }
    let result: ImportJSON
    do {
      result = try context.creatingStore { (store, created) throws(CLIError) in
        var result = ImportJSON(store: context.storePath, createdStore: created)
        // Scene ids are told apart by their bytes, as the store does (NFC and NFD are two scenes).
        // A new store counts them itself at the end; a store that appeared meanwhile at the path
        // holds others, and the file's are counted here.
        var scenes = Set<Data>()
        let committed = try context.store { () throws(StoreError) in
          return try store.importSnapshots { importer throws(StoreError) in
            var next: SnapshotLine.Parsed? = first
            while let parsed = next {
              let id = try importer.insert(
                document: parsed.document, metadata: parsed.metadata, scene: parsed.scene,
                quarantine: parsed.quarantine)
              result.firstSnapshot = result.firstSnapshot ?? id
              result.lastSnapshot = id
              result.imported += 1
              if !created { scenes.insert(Data(parsed.scene.utf8)) }
              do throws(CLIError) {
                next = try lines.next()
              } catch {
                return false
              }
            }
            result.scenes = created ? try importer.sceneCount() : scenes.count
            return true
          }
        }
        if let failure = lines.failure { throw failure }
        guard committed else { throw .data("\(name): the import was not committed") }
        return result
      }
    } catch {
      if let failure = lines.failure { throw failure }
      // The store failed: a malformed line further on is what a check of every line first finds.
      do throws(CLIError) {
        while try lines.next() != nil {}
      } catch let malformed {
        throw malformed
      }
      throw error
    }
    report(result, context)
    return .ok
  }

  /// Prints what an import did.
  private static func report(_ result: ImportJSON, _ context: CommandContext) {
    if context.json {
      context.printJSON(result)
    } else {
      let range = result.firstSnapshot.map { first in
        " (snapshots \(first)–\(result.lastSnapshot ?? first))"
      }
      context.console.out(
        "Imported \(Formatting.count(result.imported, "snapshot")) of "
          + "\(Formatting.count(result.scenes, "scene")) into \(Formatting.printable(result.store))\(range ?? "")"
          + (result.createdStore ? ", a new store." : "."))
    }
  }

  /// Reads the file's `count` snapshots again and inserts them in one transaction.
  private static func insert(
    _ path: String, name: String, count: Int, limits: InputLimits, into store: SnapshotStore,
    created: Bool,
    context: CommandContext
  ) throws(CLIError) -> ImportJSON {
    var result = ImportJSON(store: context.storePath, createdStore: created)
    var failure: CLIError?
    let writing = Progress(console: context.console, label: "importing")
    defer { writing.finish() }
    let committed = try context.store { () throws(StoreError) in
      try store.importSnapshots { importer throws(StoreError) in
        // Scene ids are told apart by their bytes, as the store does (NFC and NFD are two scenes).
        var scenes = Set<[UInt8]>()
        var insertError: StoreError?
        let again: Int
        do throws(CLIError) {
          again = try readLines(path, name: name, limits: limits, progress: writing) {
            parsed in
            do throws(StoreError) {
              let id = try importer.insert(
                document: parsed.document, metadata: parsed.metadata, scene: parsed.scene,
                quarantine: parsed.quarantine)
              result.firstSnapshot = result.firstSnapshot ?? id
              result.lastSnapshot = id
              scenes.insert(SceneID.key(parsed.scene))
              return true
            } catch {
              insertError = error
              return false
            }
          }
        } catch {
          failure = error
          return false
        }
        if let insertError { throw insertError }
        guard again == count else {
          failure = .data("\(name): the file changed while it was imported")
          return false
        }
        result.imported = count
        result.scenes = scenes.count
        return true
      }
    }
    if let failure, !committed {
      throw CLIError(exitCode: failure.exitCode, message: failure.message + "; nothing was written")
    }
    return result
  }

  /// Reads every line of `path`, parsing each non-blank one and handing it to `body`, which
  /// returns `false` to stop.
  ///
  /// - Returns: how many snapshots were read.
  /// - Throws: ``CLIError``: 66 for a file that cannot be opened, 65 naming the first malformed
  ///   line, 74 when reading fails.
  private static func readLines(
    _ path: String, name: String, limits: InputLimits, progress: Progress,
    _ body: (SnapshotLine.Parsed) -> Bool
  ) throws(CLIError) -> Int {
    var lines = try Lines(path, name: name, limits: limits, progress: progress)
    defer { lines.close() }
    var count = 0
    while let parsed = try lines.next() {
      count += 1
      guard body(parsed) else { break }
    }
    return count
  }

  /// The snapshot lines of a file, read and parsed one at a time, as ``readLines(_:name:limits:progress:_:)``
  /// reads them (blank lines skipped, the same errors).
  private struct Lines {
    private let handle: FileHandle
    private var reader: LineReader
    private let name: String
    private let limits: InputLimits
    private let progress: Progress
    private var count = 0
    /// The error the reading stopped at, once it did.
    private(set) var failure: CLIError?

    init(_ path: String, name: String, limits: InputLimits, progress: Progress) throws(CLIError) {
      handle = try InputFile.open(path)
      reader = LineReader(handle: handle, maxLineBytes: SnapshotLine.maxLineBytes(limits))
      self.name = name
      self.limits = limits
      self.progress = progress
    }

    func close() { try? handle.close() }

    /// The next snapshot, `nil` at the end of the file.
    ///
    /// - Throws: ``CLIError`` as ``readLines(_:name:limits:progress:_:)`` does; it is kept in
    ///   ``failure``, and reading stops there.
    mutating func next() throws(CLIError) -> SnapshotLine.Parsed? {
      if let failure { throw failure }
      do throws(CLIError) {
        while true {
          let next: (number: Int, range: Range<Int>)?
          do throws(LineReader.Failure) {
            next = try reader.nextRange()
          } catch {
            switch error {
            case .lineTooLong(let number):
              throw .data(
                "\(name):\(number): line is longer than \(SnapshotLine.maxLineBytes(limits)) bytes")
            case .unreadable(let reason):
              throw CLIError(exitCode: .ioError, message: "\(name): cannot read: \(reason)")
            }
          }
          guard let (number, range) = next else { return nil }
          // Read where the reader holds it: no copy of the line.
          let limits = limits
          let read = reader.withBytes(of: range) { parse($0, limits: limits) }
          switch read {
          case nil: continue
          case .success(let parsed):
            count += 1
            progress.update(count)
            return parsed
          case .failure(let error):
            throw .data("\(name):\(number): \(error.message)")
          }
        }
      } catch {
        failure = error
        throw error
      }
    }
  }

  /// A line of the input: `nil` for a blank line, else the snapshot it holds or why it holds none.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: InputLimits)
    -> Result<SnapshotLine.Parsed, SnapshotLine.Problem>?
  {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
    do throws(SnapshotLine.Problem) {
      return .success(try SnapshotLine.parse(UnsafeRawBufferPointer(bytes), limits: limits))
    } catch {
      return .failure(error)
    }
  }

  /// Copies stdin to a new temporary file (permissions 0600), so that it can be read twice: once
  /// to check every line before the store is opened, once to insert. Each line is checked as it
  /// is copied (its length, then what it holds), and the first bad one stops the copy, as it
  /// stops the reading of a file: an endless input of anything but snapshots never fills the disk.
  ///
  /// - Returns: the file's path; the caller removes it.
  /// - Throws: ``CLIError`` with exit 74 when stdin cannot be read or the copy cannot be written,
  ///   65 at a line over the limit or one that holds no snapshot; the copy is removed.
  private static func spoolStandardInput(_ console: Console, limits: InputLimits)
    throws(CLIError) -> String
  {
    let maxLineBytes = SnapshotLine.maxLineBytes(limits)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-import-\(UUID().uuidString).jsonl"
    ).path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CLIError(
        exitCode: .ioError,
        message:
          "\(path): cannot create: \(CLIError.reason(errno: errno)) (the copy of stdin an import "
          + "reads twice; TMPDIR chooses its folder)")
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    defer { try? handle.close() }
    func fail(_ error: CLIError) -> CLIError {
      try? FileManager.default.removeItem(atPath: path)
      return error
    }
    // Line by line, through the reader the import reads the copy with: the same limit, the same
    // line numbers. Lines are written back with `\n` alone, which the reading takes the same.
    var lines = LineReader(.standardInput(console), maxLineBytes: maxLineBytes)
    var pending = Data()
    while true {
      let next: (number: Int, range: Range<Int>)?
      do throws(LineReader.Failure) {
        next = try lines.nextRange()
      } catch {
        switch error {
        case .lineTooLong(let number):
          throw fail(.data("stdin:\(number): line is longer than \(maxLineBytes) bytes"))
        case .unreadable(let reason):
          throw fail(CLIError(exitCode: .ioError, message: "stdin: cannot read: \(reason)"))
        }
      }
      if let (number, range) = next {
        // Each line is checked as it is copied: a bad one stops the copy, not the end of stdin.
        let failure = lines.withBytes(of: range) { bytes -> SnapshotLine.Problem? in
          if case .failure(let problem) = parse(bytes, limits: limits) { return problem }
          pending.append(bytes)
          return nil
        }
        if let failure { throw fail(.data("stdin:\(number): \(failure.message)")) }
        pending.append(0x0A)
      }
      guard next == nil || pending.count >= 1 << 20 else { continue }
      do {
        try handle.write(contentsOf: pending)
      } catch {
        throw fail(
          CLIError(exitCode: .ioError, message: "\(path): cannot write: \(CLIError.reason(error))"))
      }
      pending.removeAll(keepingCapacity: true)
      if next == nil { return path }
    }
  }

  private struct ImportJSON: JSONWritable {
    var store: String
    var createdStore = false
    var imported = 0
    var scenes = 0
    var firstSnapshot: Int64?
    var lastSnapshot: Int64?

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("store", store)
        json.member("createdStore", createdStore)
        json.member("imported", imported)
        json.member("scenes", scenes)
        json.member("firstSnapshot", firstSnapshot)
        json.member("lastSnapshot", lastSnapshot)
      }
    }
  }
}
