import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint import FILE`: reads `export`'s JSON Lines back as new snapshots.
enum ImportCommand: WaypointCommand {
  static let file = "FILE"

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "import",
      summary: "Read JSON Lines written by 'waypoint export' into the store as new snapshots.",
      discussion: [
        "All or nothing: every line is checked before the store is opened, and the snapshots are "
          + "written in one transaction. A malformed line exits 65 naming its line number, and "
          + "nothing is written. Each snapshot gets a new id and keeps its scene, document and "
          + "quarantine mark; nothing is deduplicated or trimmed. Creates the store if it does "
          + "not exist."
      ],
      positionals: [
        PositionalDeclaration(valueName: file, help: "The JSON Lines file to read.")
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let path = context.arguments.positional(file) ?? ""
    let limits = StoreConfiguration().limits
    let progress = Progress(console: context.console, label: "checking \(path)")
    let count = try readLines(path, limits: limits, progress: progress) { _, _ in true }
    progress.finish()
    guard count > 0 else {
      context.note("\(path) holds no snapshots; nothing imported")
      if context.json { try context.printJSON(ImportJSON(store: context.storePath)) }
      return .ok
    }
    let result = try context.creatingStore { (store, created) throws(CLIError) in
      try insert(
        path, count: count, limits: limits, into: store, created: created, context: context)
    }
    if context.json {
      try context.printJSON(result)
    } else {
      let range = result.firstSnapshot.map { first in
        " (snapshots \(first)–\(result.lastSnapshot ?? first))"
      }
      context.console.out(
        "Imported \(Formatting.count(result.imported, "snapshot")) of "
          + "\(Formatting.count(result.scenes, "scene")) into \(result.store)\(range ?? "")"
          + (result.createdStore ? ", a new store." : "."))
    }
    return .ok
  }

  /// Reads the file's `count` snapshots again and inserts them in one transaction.
  private static func insert(
    _ path: String, count: Int, limits: SnapshotLimits, into store: SnapshotStore, created: Bool,
    context: CommandContext
  ) throws(CLIError) -> ImportJSON {
    var result = ImportJSON(store: context.storePath, createdStore: created)
    var failure: CLIError?
    let writing = Progress(console: context.console, label: "importing")
    defer { writing.finish() }
    let committed = try context.store { () throws(StoreError) in
      try store.importSnapshots { importer throws(StoreError) in
        var scenes = Set<[UInt8]>()
        var insertError: StoreError?
        let again: Int
        do throws(CLIError) {
          again = try readLines(path, limits: limits, progress: writing) { _, parsed in
            do throws(StoreError) {
              let id = try importer.insert(
                parsed.snapshot, scene: parsed.scene, quarantine: parsed.quarantine)
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
          failure = .data("\(path): the file changed while it was imported")
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
    _ path: String, limits: SnapshotLimits, progress: Progress,
    _ body: (Int, SnapshotLine.Parsed) -> Bool
  ) throws(CLIError) -> Int {
    let handle = try InputFile.open(path)
    defer { try? handle.close() }
    var reader = LineReader(handle: handle, maxLineBytes: SnapshotLine.maxLineBytes(limits))
    var count = 0
    while true {
      let next: (number: Int, bytes: Data)?
      do throws(LineReader.Failure) {
        next = try reader.next()
      } catch {
        switch error {
        case .lineTooLong(let number):
          throw .data(
            "\(path):\(number): line is longer than \(SnapshotLine.maxLineBytes(limits)) bytes")
        case .unreadable(let reason):
          throw CLIError(exitCode: .ioError, message: "\(path): cannot read: \(reason)")
        }
      }
      guard let (number, bytes) = next else { break }
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let parsed: SnapshotLine.Parsed
      do throws(SnapshotLine.Problem) {
        parsed = try SnapshotLine.parse(bytes, limits: limits)
      } catch {
        throw .data("\(path):\(number): \(error.message)")
      }
      count += 1
      progress.update(count)
      guard body(number, parsed) else { break }
    }
    return count
  }

  private struct ImportJSON: Encodable {
    var store: String
    var createdStore = false
    var imported = 0
    var scenes = 0
    var firstSnapshot: Int64?
    var lastSnapshot: Int64?

    private enum CodingKeys: String, CodingKey {
      case store, createdStore, imported, scenes, firstSnapshot, lastSnapshot
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(store, forKey: .store)
      try container.encode(createdStore, forKey: .createdStore)
      try container.encode(imported, forKey: .imported)
      try container.encode(scenes, forKey: .scenes)
      try container.encode(firstSnapshot, forKey: .firstSnapshot)
      try container.encode(lastSnapshot, forKey: .lastSnapshot)
    }
  }
}
