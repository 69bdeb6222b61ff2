import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `waypoint recover --output FILE [--force]`: copies every snapshot that can still be read from a
/// damaged store into a new store.
enum RecoverCommand: WaypointCommand {
  static let output = OptionKey<String>(
    "--output", value: "FILE",
    help: "The new store to create; an existing FILE is replaced only with --force.",
    required: true)

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "recover",
      summary: "Copy every snapshot that can still be read from a damaged store into a new store.",
      discussion: [
        "For a store whose pages are damaged, which the other commands refuse (exit 65). The "
          + "damaged file is opened read-only and never written. Rows are read in id order, "
          + "stepping over damaged rows and pages; each snapshot that reads and decodes is "
          + "inserted into the new store with its scene, document and quarantine mark. What "
          + "could not be read is listed. The new store is written under a temporary name beside "
          + "FILE and moved into place at the end; an existing FILE (with its -wal, -shm and -journal "
          + "files) is replaced only with --force, and the damaged store never. Exits 1 when "
          + "something could not be recovered."
      ],
      options: [output.declaration, OutputFile.force.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let source = context.storePath
    let output = try context.required(Self.output)
    let force = context[OutputFile.force]
    try CommandContext.checkStoreFile(source, mayBeMissing: false)
    // By the rule for files: never the damaged store (nor its -wal, -shm or -journal), even with
    // --force; an existing file only with --force; built under a temporary name and moved into
    // place at the end.
    if let companion = OutputFile.sameFile(output, asStore: source) {
      throw CLIError(
        exitCode: .cantCreate,
        message:
          "\(output): is \(companion) the command reads (\(source)); refusing to write over it")
    }
    let replaces = try OutputFile.checkStore(output, force: force)
    let temporary = try OutputFile.emptyFile(beside: output)
    var result = RecoverJSON(
      store: source, output: output,
      replaced: replaces && OutputFile.existing(output) != .nothing)
    let progress = Progress(console: context.console, label: "recovering")
    do throws(CLIError) {
      try copy(
        from: source, into: temporary, output: output, result: &result, progress: progress)
      progress.finish()
      try OutputFile.placeStore(temporary, at: output, replacing: replaces)
    } catch {
      progress.finish()
      OutputFile.discard(temporary)
      throw error
    }
    if context.json {
      context.printJSON(result)
    } else {
      for line in result.lines() { context.console.out(Formatting.printable(line)) }
    }
    return result.isComplete ? .ok : .problemsFound
  }

  /// Reads `source` with ``SnapshotStore/salvage(path:configuration:_:)`` into a new store at
  /// `path`, closed when this returns.
  private static func copy(
    from source: String, into path: String, output: String, result: inout RecoverJSON,
    progress: Progress
  ) throws(CLIError) {
    let store: SnapshotStore
    do {
      store = try SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false))
    } catch {
      // The output cannot be created (a missing folder, a read-only place).
      let reason = CLIError(error).message.replacingOccurrences(of: path + ": ", with: "")
      throw CLIError(
        exitCode: .ioError, message: "\(output): cannot create the new store: \(reason)")
    }
    let limits = store.configuration.limits
    var salvageError: StoreError?
    var report: SalvageReport?
    var scenes = Set<[UInt8]>()
    var recovered = 0
    var leftOut: [RecoverJSON.Snapshot] = []
    var leftOutCount = 0
    do throws(StoreError) {
      try store.importSnapshots { importer throws(StoreError) in
        do throws(StoreError) {
          report = try SnapshotStore.salvage(path: source) { stored in
            switch stored.decoded(limits: limits) {
            case .success(let snapshot):
              do throws(StoreError) {
                try importer.insert(
                  snapshot, scene: stored.info.scene, quarantine: stored.info.quarantine)
                recovered += 1
                scenes.insert(Array(stored.info.scene.utf8))
              } catch {
                salvageError = error
                return false
              }
            case .failure(let error):
              leftOutCount += 1
              if leftOut.count < SalvageReport.maxListed {
                leftOut.append(
                  RecoverJSON.Snapshot(
                    id: stored.info.id, scene: stored.info.scene,
                    reason: "its document cannot be read: \(error)"))
              }
            }
            progress.update(recovered + leftOutCount)
            return true
          }
        } catch {
          salvageError = error
        }
        if let salvageError { throw salvageError }
        return true
      }
    } catch {
      // A file refused whole gets the words every command gives it; any other damage that stops
      // the salvage leaves nothing recovered either.
      throw CLIError(error, store: source, damageHint: CLIError.nothingReadable)
    }
    result.recovered = recovered
    result.scenes = scenes.count
    guard let report else { return }
    result.read = report.read
    result.leftOut = leftOut
    result.leftOutCount = leftOutCount
    result.lost = report.lost.map {
      RecoverJSON.Snapshot(id: $0.id, scene: $0.scene, reason: $0.reason)
    }
    result.lostCount = report.lostCount
    result.unreadableRanges = report.unreadableRanges.map {
      RecoverJSON.Range(from: $0.lowerBound, to: $0.upperBound)
    }
  }

  private struct RecoverJSON: JSONWritable {
    struct Snapshot: JSONWritable {
      var id: Int64
      var scene: String?
      var reason: String

      func write(to json: inout JSONStream) {
        json.object { json in
          json.member("id", id)
          json.member("scene", scene)
          json.member("reason", reason)
        }
      }
    }

    struct Range: JSONWritable {
      var from: Int64
      var to: Int64

      func write(to json: inout JSONStream) {
        json.object { json in
          json.member("from", from)
          json.member("to", to)
        }
      }
    }

    var store: String
    var output: String
    /// Whether a file stood at `output` that the new store replaced (`--force`).
    var replaced: Bool
    /// Rows read from the damaged store.
    var read = 0
    /// Snapshots written to the new store.
    var recovered = 0
    var scenes = 0
    /// Rows read whose document cannot be decoded (first 1000, and the count).
    var leftOut: [Snapshot] = []
    var leftOutCount = 0
    /// Snapshots known to exist that could not be read (first 1000, and the count).
    var lost: [Snapshot] = []
    var lostCount = 0
    /// Ids in damaged pages of the table.
    var unreadableRanges: [Range] = []

    var isComplete: Bool { leftOutCount == 0 && lostCount == 0 && unreadableRanges.isEmpty }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("store", store)
        json.member("output", output)
        json.member("replaced", replaced)
        json.member("read", read)
        json.member("recovered", recovered)
        json.member("scenes", scenes)
        json.member("lost", lost)
        json.member("lostCount", lostCount)
        json.member("leftOut", leftOut)
        json.member("leftOutCount", leftOutCount)
        json.member("unreadableRanges", unreadableRanges)
      }
    }

    func lines() -> [String] {
      var lines = [
        "Recovered \(Formatting.count(recovered, "snapshot")) of "
          + "\(Formatting.count(scenes, "scene")) from \(store) into \(output), a new store"
          + (replaced ? " that replaced the file there." : ".")
      ]
      for range in unreadableRanges {
        let ids =
          range.from == Int64.min && range.to == Int64.max
          ? "every snapshot id" : "snapshot ids \(Self.bound(range.from))–\(Self.bound(range.to))"
        lines.append("Could not read \(ids): a damaged page of the table.")
      }
      for snapshot in lost {
        lines.append(
          "  lost: snapshot \(snapshot.id)\(Self.of(snapshot.scene)): \(snapshot.reason)")
      }
      if lostCount > lost.count { lines.append("  … and \(lostCount - lost.count) more lost") }
      for snapshot in leftOut {
        lines.append(
          "  left out: snapshot \(snapshot.id)\(Self.of(snapshot.scene)): \(snapshot.reason)")
      }
      if leftOutCount > leftOut.count {
        lines.append("  … and \(leftOutCount - leftOut.count) more left out")
      }
      if !isComplete {
        lines.append(
          "Not recovered: \(Formatting.count(lostCount, "snapshot")) named as lost, "
            + "\(leftOutCount) left out"
            + (unreadableRanges.isEmpty ? "" : ", and whatever the damaged pages held")
            + ". The damaged store is unchanged.")
      }
      return lines
    }

    private static func of(_ scene: String?) -> String { scene.map { " of scene \($0)" } ?? "" }

    private static func bound(_ id: Int64) -> String {
      id == Int64.min ? "(first)" : id == Int64.max ? "(last)" : "\(id)"
    }
  }
}
