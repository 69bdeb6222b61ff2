import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

/// `waypoint export [--redact] [--output FILE [--force]]`: every snapshot as JSON Lines.
enum ExportCommand: WaypointCommand {
  static let redact = FlagKey(
    "--redact",
    help:
      "Replace every route field value by a stable hash, keeping keys, case names and "
      + "structure; scene ids and app builds are hashed too.")
  static let output = OptionKey<String>(
    "--output", value: "FILE",
    help:
      "Write to FILE (created with permissions 0600) instead of stdout; never the store, "
      + "and an existing FILE only with --force.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "export",
      summary: "Write every snapshot as JSON Lines (id, scene, save time, quarantine, document).",
      discussion: [
        "Streams over the store, oldest snapshot first, in constant memory. A snapshot whose "
          + "document cannot be read is left out and named on stderr, and the command then exits "
          + "65 after writing the others. With --json (which needs --output), stdout gets a "
          + "summary."
      ],
      options: [redact.declaration, output.declaration, OutputFile.force.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let output = context[Self.output]
    if context.json, output == nil {
      throw .usage(
        "--json needs \(Self.output.name) FILE: without it, stdout carries the JSON Lines")
    }
    let force = context[OutputFile.force]
    if force, output == nil {
      throw .usage("\(OutputFile.forceFlag) needs \(Self.output.name) FILE")
    }
    let store = try context.openStore(.read)
    let limits = store.configuration.limits
    let redactor = context[redact] ? Redactor(limits: limits) : nil
    let sink =
      try output.map { (path) throws(CLIError) in
        try OutputSink(file: path, console: context.console, force: force, store: store.path)
      }
      ?? OutputSink(console: context.console)
    let progress = Progress(console: context.console, label: "exporting")
    var exported = 0
    // The first 100 are named; the rest are counted, so that memory stays bounded.
    var skipped: [Skipped] = []
    var skippedCount = 0
    var failure: CLIError?
    do throws(CLIError) {
      try context.store { () throws(StoreError) in
        try store.forEachSnapshot { stored in
          // Each line is put together in the output's own buffer.
          var outcome: Result<Void, SnapshotLine.Problem> = .success(())
          do throws(CLIError) {
            try sink.write { bytes in
              outcome = Self.line(for: stored, redactor: redactor, limits: limits, into: &bytes)
              if case .success = outcome { return true }
              return false
            }
          } catch {
            failure = error
            return false
          }
          switch outcome {
          case .success:
            exported += 1
          case .failure(let problem):
            let scene = redactor?.scene(stored.info.scene) ?? stored.info.scene
            skippedCount += 1
            guard skippedCount <= 100 else { break }
            skipped.append(Skipped(id: stored.info.id, scene: scene, reason: problem.message))
            context.note(
              "snapshot \(stored.info.id) of scene \(Formatting.printable(scene)) left out: "
                + Formatting.printable(problem.message))
          }
          progress.update(exported + skippedCount)
          return true
        }
      }
      if let failure { throw failure }
      try sink.finish()
    } catch {
      progress.finish()
      sink.abandon()
      throw error
    }
    progress.finish()
    let summary =
      "Exported \(Formatting.count(exported, "snapshot")) to \(Formatting.printable(sink.name))."
    if context.json {
      context.printJSON(
        ExportJSON(
          exported: exported, output: sink.name, redacted: redactor != nil,
          skippedCount: skippedCount, skipped: skipped))
    } else if output != nil {
      context.console.out(summary)
    } else {
      context.note(summary)
    }
    guard skippedCount == 0 else {
      throw .data(
        "\(store.path): \(Formatting.count(skippedCount, "snapshot")) could not be exported")
    }
    return .ok
  }

  /// The line for one snapshot, or why it is left out. With `redactor`, the document is read,
  /// redacted and written again.
  static func line(
    for stored: StoredSnapshot, redactor: Redactor?, limits: InputLimits,
    into bytes: inout [UInt8]
  ) -> Result<Void, SnapshotLine.Problem> {
    let info = stored.info
    var quarantine = info.quarantine
    if let redactor, let mark = quarantine {
      quarantine = Quarantine(mark.kind, detail: redactor.text(mark.detail), since: mark.since)
    }
    let document: Data
    if let redactor {
      switch stored.decoded(limits: limits) {
      case .success(let snapshot): document = redactor.snapshot(snapshot).encoded()
      // The reason names no stored value: it is printed and put in the --json summary.
      case .failure(let error):
        return .failure(SnapshotLine.Problem(message: redactor.reason(error)))
      }
    } else {
      switch verbatimDocument(stored, limits: limits) {
      case .success(let bytes): document = bytes
      case .failure(let problem): return .failure(problem)
      }
    }
    SnapshotLine.append(
      id: info.id, scene: redactor?.scene(info.scene) ?? info.scene, savedAt: info.savedAt,
      quarantine: quarantine, document: document, to: &bytes)
    return .success(())
  }

  /// The stored document as it is, when it is one JSON object within the limits, every string
  /// and number of which reads; compacted onto one line when it spans several. A document this
  /// build does not read (a newer format) is exported as it is.
  private static func verbatimDocument(_ stored: StoredSnapshot, limits: InputLimits)
    -> Result<Data, SnapshotLine.Problem>
  {
    let document: Data
    switch stored.document {
    case .read(let data): document = data
    case .tooLarge(let byteCount, let limit):
      let error = SnapshotFormatError.tooLarge(byteCount: byteCount, limit: limit)
      return .failure(SnapshotLine.Problem(message: error.description))
    }
    guard
      let json = try? JSONStructure(
        scanning: document, byteLimit: limits.maxDocumentBytes, maxDepth: limits.maxNestingDepth),
      json.kind(json.root) == .object, json.firstUnreadableValue() == nil
    else {
      return .failure(SnapshotLine.Problem(message: "the document is not a JSON object"))
    }
    let oneLine = document.withUnsafeBytes { bytes in !bytes.contains { $0 == 0x0A || $0 == 0x0D } }
    if oneLine { return .success(document) }
    // Onto one line, as JSONValue writes it.
    let documentLimits = InputLimits(
      maxDocumentBytes: limits.maxDocumentBytes, maxPayloadBytes: limits.maxDocumentBytes,
      maxNestingDepth: limits.maxNestingDepth)
    guard let text = String(data: document, encoding: .utf8),
      let value = try? JSONValue(parsing: text, limits: documentLimits)
    else {
      return .failure(SnapshotLine.Problem(message: "the document is not UTF-8 text"))
    }
    return .success(Data(value.jsonText.utf8))
  }

  private struct Skipped: JSONWritable {
    var id: Int64
    var scene: String
    var reason: String

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("id", id)
        json.member("scene", scene)
        json.member("reason", reason)
      }
    }
  }

  private struct ExportJSON: JSONWritable {
    var exported: Int
    var output: String
    var redacted: Bool
    var skippedCount: Int
    /// The first 100 snapshots left out.
    var skipped: [Skipped]

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("exported", exported)
        json.member("output", output)
        json.member("redacted", redacted)
        json.member("skippedCount", skippedCount)
        json.member("skipped", skipped)
      }
    }
  }
}
