import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

/// `waypoint outcomes`: the restore outcome records a store keeps, one per line (`--json`: the
/// records themselves, JSON Lines); `waypoint outcomes summarize FILE…|-`: the records of a fleet
/// (JSON Lines, as apps send ``RestoreOutcome/jsonLine``), summarized per app build, tag and drop
/// reason, with a release gate (`--fail-above`).
enum OutcomesCommand: WaypointCommand {
  static let action = PositionalKey(
    "ACTION", help: "summarize; none lists the store's records.", required: false)
  static let files = PositionalKey(
    "FILE", help: "JSON Lines files of records to read; - reads stdin.", repeatable: true,
    required: false)
  static let failAbove = OptionKey<Double>(
    "--fail-above", value: "PCT",
    help: "Exit 1 when a build's root share or a (tag, reason) drop share is over PCT (1% or 0.5).",
    parser: .percentage)

  /// The most bad lines named on stderr (and in `--json`); the rest are counted.
  static let maxBadLinesNamed = 20

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "outcomes",
      summary: "List a store's restore outcome records, or summarize a fleet's per build and tag.",
      discussion: [
        "Without ACTION, lists the records of the newest restores (50 at most) that the store "
          + "keeps, oldest first: when, the outcome, the build, the snapshot's age, the restore's "
          + "duration and what it dropped or migrated. --json prints the records themselves, one "
          + "JSON line each, as apps send them: waypoint outcomes --json | waypoint outcomes "
          + "summarize - summarizes them. A kept row that is not a record is named on stderr "
          + "(exit 1).",
        "summarize reads JSON Lines of restore outcome records (RestoreOutcome.jsonLine, the "
          + "schema of Docs/Outcomes.md) from each FILE in turn, - for stdin, streaming in "
          + "constant memory, and prints per app build its restores, the share that ended partial "
          + "and at the root, and per (tag, reason) of dropped routes the share of the build's "
          + "restores that dropped one, each with its change in percentage points against the "
          + "previous build. Builds are ordered by the versions in their names, numbers joined by "
          + "dots compared one by one (2.0 (200) before 2.0.1 (201) before 10.0 (1000)), a record "
          + "without a build first.",
        "Lines that are not records (not JSON, a newer format, a missing field, a wrong type, an "
          + "absurd count, a line over 64 KiB) are skipped and counted; the first 20 are named "
          + "on stderr with their file and line. Empty lines are skipped. The first 200 builds "
          + "and the first 1,000 (tag, reason) pairs of each build (10,000 in all) are tallied "
          + "apart; later ones are folded into one row, which the output names.",
        "Exits 1 when --fail-above is crossed (naming what crossed it), 65 when no line is a "
          + "record, 66 for a missing FILE. summarize reads no store.",
      ],
      positionals: [action.declaration, files.declaration],
      options: [failAbove.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    guard let given = context[action] else {
      guard context.values(files).isEmpty, context[failAbove] == nil else {
        throw .usage("missing ACTION: expected 'summarize FILE…', or nothing to list the store's")
      }
      return try list(context)
    }
    guard given == "summarize" else {
      throw .unknownAction(given, expected: ["summarize"])
    }
    let paths = context.values(files)
    guard !paths.isEmpty else {
      throw .usage("missing FILE: summarize reads files, or - for stdin")
    }
    guard paths.filter({ $0 == "-" }).count <= 1 else {
      throw .usage("stdin (-) can be read only once")
    }
    // Every file is opened before any is read: a missing one stops the command at once.
    var sources: [(name: String, source: LineReader.Source)] = []
    defer {
      for case (_, .file(let handle)) in sources { try? handle.close() }
    }
    for path in paths {
      if path == "-" {
        sources.append((InputFile.name(path), .standardInput(context.console)))
      } else {
        sources.append((path, .file(try InputFile.open(path))))
      }
    }

    var summary = OutcomeSummary()
    var bad = BadLines()
    let progress = Progress(console: context.console, label: "reading records")
    for (name, source) in sources {
      var lines = LineReader(source, maxLineBytes: RestoreOutcome.maxLineBytes)
      while true {
        let next: LineReader.Line?
        do {
          next = try lines.nextLine()
        } catch {
          // Lines over the limit come back as such: only a read fails.
          switch error {
          case .unreadable(let reason):
            throw CLIError(exitCode: .ioError, message: "\(name): cannot read: \(reason)")
          case .lineTooLong(let number):
            throw CLIError(exitCode: .dataError, message: "\(name):\(number): line too long")
          }
        }
        guard let next else { break }
        switch next {
        case .tooLong(let number, let bytes):
          bad.add(
            file: name, line: number, code: "tooLarge",
            message: "\(bytes) bytes, over the limit of \(RestoreOutcome.maxLineBytes) for a line")
        case .line(let number, let range):
          let result = lines.withBytes(of: range) {
            bytes -> Result<RestoreOutcome, RestoreOutcome.ReadError>? in
            // Empty lines (and lines of blanks) are no records, and no error.
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
            do throws(RestoreOutcome.ReadError) {
              return .success(try RestoreOutcome(jsonLine: bytes))
            } catch {
              return .failure(error)
            }
          }
          switch result {
          case .success(let record)?:
            summary.add(record)
            progress.update(summary.records)
          case .failure(let error)?:
            bad.add(file: name, line: number, code: error.codeName, message: error.message)
          case nil:
            break
          }
        }
      }
    }
    progress.finish()

    for line in bad.named {
      context.console.err(
        "waypoint outcomes: \(Formatting.printable(line.file)):\(line.line): "
          + Formatting.printable(line.message))
    }
    if bad.count > bad.named.count {
      context.console.err(
        "waypoint outcomes: \(Formatting.count(bad.count - bad.named.count, "more bad line")) "
          + "not named")
    }
    let inputs = sources.map(\.name)
    guard summary.records > 0 else {
      let read = inputs.count == 1 ? inputs[0] : Formatting.count(inputs.count, "file")
      throw .data(
        "\(Formatting.printable(read)): no readable record"
          + (bad.count > 0 ? " (\(Formatting.count(bad.count, "bad line")))" : ""))
    }
    let report = SummaryReport(
      summary, files: inputs, bad: bad, threshold: context[failAbove])
    if context.json {
      report.stream(to: context.console)
    } else {
      for line in report.lines(context.style) { context.console.out(line) }
    }
    return report.failures.isEmpty ? .ok : .problemsFound
  }

  /// The text summary of `records` (`summarize` over them), for the demo.
  static func summaryLines(of records: [RestoreOutcome], style: Style) -> [String] {
    var summary = OutcomeSummary()
    for record in records { summary.add(record) }
    return SummaryReport(summary, files: ["the store"], bad: BadLines(), threshold: nil).lines(
      style)
  }

  /// The records the store keeps, oldest first.
  private static func list(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let store = try context.openStore(.read)
    let kept = try context.store { () throws(StoreError) in try store.restoreOutcomes() }
    var unreadable: [(StoredOutcome, RestoreOutcome.ReadError)] = []
    var records: [(StoredOutcome, RestoreOutcome)] = []
    for row in kept {
      do throws(RestoreOutcome.ReadError) {
        records.append((row, try RestoreOutcome(jsonLine: row.record)))
      } catch {
        unreadable.append((row, error))
      }
    }
    for (row, error) in unreadable {
      context.console.err(
        "waypoint outcomes: record \(row.id): not a record: " + Formatting.printable(error.message))
    }
    if context.json {
      // The records as kept, verbatim: the lines summarize reads.
      for (row, _) in records { context.console.out(String(decoding: row.record, as: UTF8.self)) }
      return unreadable.isEmpty ? .ok : .problemsFound
    }
    guard !kept.isEmpty else {
      context.note("no restore outcomes in \(store.path)")
      return .ok
    }
    var table = TextTable(
      header: ["RECORD", "KEPT AT", "OUTCOME", "BUILD", "AGE", "TOOK", "DROPPED AND MIGRATED"])
    for (row, record) in records {
      table.rows.append([
        TextTable.Cell("\(row.id)"), TextTable.Cell(Formatting.date(row.recordedAt)),
        TextTable.Cell(
          record.outcome.rawValue + (record.crashLoop == .setAside ? " (crash loop)" : ""),
          record.outcome == .restored ? nil : .yellow),
        TextTable.Cell(record.appBuild.map(Formatting.printable) ?? "-"),
        TextTable.Cell(record.snapshotAgeHours.map { "\($0) h" } ?? "-"),
        TextTable.Cell("\(record.durationMicroseconds) µs"),
        TextTable.Cell(items(record)),
      ])
    }
    for line in table.render(context.style) { context.console.out(line) }
    return unreadable.isEmpty ? .ok : .problemsFound
  }

  /// `2 dropped Shop.Route (removedCase), 1 migrated Shop.Route 1→2`, or `-`.
  static func items(_ record: RestoreOutcome) -> String {
    var parts = record.items.map { item in
      let tag = item.tag.map { " " + Formatting.printable($0) } ?? ""
      switch item.kind {
      case .dropped:
        return "\(item.count) dropped\(tag) (\(Formatting.printable(item.reason ?? "?")))"
      case .migrated:
        let versions =
          "\(item.fromVersion.map(String.init) ?? "?")→\(item.toVersion.map(String.init) ?? "?")"
        return "\(item.count) migrated\(tag) \(versions)"
      }
    }
    if record.omittedItems > 0 { parts.append("\(record.omittedItems) more") }
    return parts.isEmpty ? "-" : parts.joined(separator: ", ")
  }

  /// The lines that are not records: how many, and the first ones.
  struct BadLines {
    struct Line {
      var file: String
      var line: Int
      var code: String
      var message: String
    }

    private(set) var count = 0
    private(set) var named: [Line] = []

    mutating func add(file: String, line: Int, code: String, message: String) {
      count += 1
      if named.count < OutcomesCommand.maxBadLinesNamed {
        named.append(Line(file: file, line: line, code: code, message: message))
      }
    }
  }
}

/// What `summarize` prints: the text tables and the `--json` document.
struct SummaryReport: JSONWritable {
  /// A build's row, with its change against the previous build.
  struct BuildRow {
    var tally: OutcomeSummary.BuildTally
    var partialShare: Double
    var rootShare: Double
    var partialChange: Double?
    var rootChange: Double?
    var drops: [DropRow]
    /// The build's other row: restores and routes of its pairs tallied together; `nil` when all
    /// were tallied apart.
    var other: DropRow?
  }

  /// A (tag, reason) row of a build.
  struct DropRow {
    var pair: OutcomeSummary.Pair
    var restores: Int
    var routes: Int
    var share: Double
    var change: Double?
  }

  /// What crossed `--fail-above`.
  struct Failure {
    var build: OutcomeSummary.BuildTally
    /// `root`, or `drop` for a (tag, reason) row (or the other row: `pair` `nil`).
    var kind: String
    var pair: OutcomeSummary.Pair?
    var share: Double
  }

  var files: [String]
  var records: Int
  var bad: OutcomesCommand.BadLines
  var threshold: Double?
  var builds: [BuildRow] = []
  var failures: [Failure] = []

  init(
    _ summary: OutcomeSummary, files: [String], bad: OutcomesCommand.BadLines, threshold: Double?
  ) {
    self.files = files
    records = summary.records
    self.bad = bad
    self.threshold = threshold
    var previous: BuildRow?
    for tally in summary.orderedBuilds {
      let restores = Double(tally.restores)
      func share(_ count: Int) -> Double { restores > 0 ? Double(count) / restores : 0 }
      // The previous build's share of each pair; a pair it did not drop had a share of 0.
      var before: [OutcomeSummary.Pair: Double] = [:]
      for row in previous?.drops ?? [] { before[row.pair] = row.share }
      let comparable = previous != nil && !tally.isFolded
      let drops = tally.pairs.map { pair in
        DropRow(
          pair: pair.pair, restores: pair.restores, routes: pair.routes,
          share: share(pair.restores),
          change: comparable ? share(pair.restores) - (before[pair.pair] ?? 0) : nil)
      }
      .sorted { left, right in
        if left.restores != right.restores { return left.restores > right.restores }
        let l = (left.pair.tag ?? "", left.pair.reason ?? "")
        let r = (right.pair.tag ?? "", right.pair.reason ?? "")
        return l.0 != r.0
          ? l.0.utf8.lexicographicallyPrecedes(r.0.utf8)
          : l.1.utf8.lexicographicallyPrecedes(r.1.utf8)
      }
      let other =
        tally.otherRestores > 0
        ? DropRow(
          pair: OutcomeSummary.Pair(tag: nil, reason: nil), restores: tally.otherRestores,
          routes: tally.otherRoutes, share: share(tally.otherRestores), change: nil) : nil
      let row = BuildRow(
        tally: tally, partialShare: share(tally.partial), rootShare: share(tally.root),
        partialChange: comparable ? share(tally.partial) - (previous?.partialShare ?? 0) : nil,
        rootChange: comparable ? share(tally.root) - (previous?.rootShare ?? 0) : nil,
        drops: drops, other: other)
      builds.append(row)
      if !tally.isFolded { previous = row }
      guard let threshold else { continue }
      if row.rootShare > threshold {
        failures.append(Failure(build: tally, kind: "root", pair: nil, share: row.rootShare))
      }
      for drop in drops + (other.map { [$0] } ?? []) where drop.share > threshold {
        failures.append(
          Failure(
            build: tally, kind: "drop", pair: drop == other ? nil : drop.pair, share: drop.share))
      }
    }
  }

  // MARK: Text

  static func buildName(_ tally: OutcomeSummary.BuildTally) -> String {
    tally.isFolded
      ? "(other builds)" : tally.name.map { Formatting.printable($0) } ?? "(no build)"
  }

  static func percent(_ share: Double) -> String { String(format: "%.2f%%", share * 100) }

  static func points(_ change: Double?) -> String {
    change.map { String(format: "%+.2f", $0 * 100) } ?? "-"
  }

  func lines(_ style: Style) -> [String] {
    let source = files.count == 1 ? files[0] : Formatting.count(files.count, "file")
    var lines = [
      "\(Formatting.count(records, "record")) of "
        + "\(Formatting.count(builds.count, "build")) from \(Formatting.printable(source))"
        + (bad.count > 0
          ? "; " + style.yellow("\(Formatting.count(bad.count, "bad line")) skipped") : "")
        + "."
    ]
    var table = TextTable(header: ["BUILD", "RESTORES", "PARTIAL", "CHANGE", "ROOT", "CHANGE"])
    table.rows = builds.map { row in
      [
        TextTable.Cell(Self.buildName(row.tally)), TextTable.Cell("\(row.tally.restores)"),
        TextTable.Cell(Self.percent(row.partialShare)),
        TextTable.Cell(Self.points(row.partialChange)),
        TextTable.Cell(Self.percent(row.rootShare)), TextTable.Cell(Self.points(row.rootChange)),
      ]
    }
    lines += [""] + table.render(style)
    var drops = TextTable(header: [
      "BUILD", "TAG", "REASON", "RESTORES", "ROUTES", "SHARE", "CHANGE",
    ])
    var folded = false
    for row in builds {
      for drop in row.drops {
        drops.rows.append([
          TextTable.Cell(Self.buildName(row.tally)),
          TextTable.Cell(drop.pair.tag.map { Formatting.printable($0) } ?? "-"),
          TextTable.Cell(drop.pair.reason.map { Formatting.printable($0) } ?? "-"),
          TextTable.Cell("\(drop.restores)"), TextTable.Cell("\(drop.routes)"),
          TextTable.Cell(Self.percent(drop.share)), TextTable.Cell(Self.points(drop.change)),
        ])
      }
      if let other = row.other {
        folded = true
        drops.rows.append([
          TextTable.Cell(Self.buildName(row.tally)), TextTable.Cell("(other)"),
          TextTable.Cell("-"), TextTable.Cell("\(other.restores)"),
          TextTable.Cell("\(other.routes)"), TextTable.Cell(Self.percent(other.share)),
          TextTable.Cell("-"),
        ])
      }
    }
    if drops.rows.isEmpty {
      lines += ["", "No restore dropped a route."]
    } else {
      lines += [""] + drops.render(style)
    }
    if folded || builds.contains(where: \.tally.isFolded) {
      lines.append(
        "(other): the (tag, reason) pairs of a build met after its first "
          + "\(OutcomeSummary.maxPairsPerBuild) (or after \(OutcomeSummary.maxPairs) in all), "
          + "tallied together; (other builds): the builds met after the first "
          + "\(OutcomeSummary.maxBuilds).")
    }
    if let threshold {
      if failures.isEmpty {
        lines += ["", "Nothing over --fail-above \(Self.percent(threshold))."]
      } else {
        lines += ["", style.red("Over --fail-above \(Self.percent(threshold)):")]
        for failure in failures {
          let what =
            failure.kind == "root"
            ? "root"
            : failure.pair.map {
              "\(Formatting.printable($0.tag ?? "-")) \(Formatting.printable($0.reason ?? "-"))"
            } ?? "(other)"
          lines.append(
            "  build \(Self.buildName(failure.build)): \(what) \(Self.percent(failure.share))")
        }
      }
    }
    return lines
  }

  // MARK: JSON

  /// Writes the `--json` document to `console` as it is made, 64 KiB at a time, so that a summary
  /// of many pairs is never whole in memory.
  func stream(to console: Console) {
    var json = JSONStream(.pretty, capacity: 80 << 10)
    write(to: &json) { json in
      if json.bytes.count >= 64 << 10 { console.writeOut(json.take()) }
    }
    var last = json.take()
    last.append(0x0A)
    console.writeOut(last)
  }

  func write(to json: inout JSONStream) { write(to: &json) { _ in } }

  /// Writes the document, calling `flush` after each drop row.
  private func write(to json: inout JSONStream, flush: (inout JSONStream) -> Void) {
    json.object { json in
      json.member("files", files)
      json.member("records", records)
      json.member("badLines", bad.count)
      json.member("firstBadLines", bad.named.map(BadLineJSON.init))
      json.key("threshold")
      Self.number(threshold, &json)
      json.key("builds")
      json.beginArray()
      for row in builds { Self.write(row, &json, flush: flush) }
      json.endArray()
      json.key("failures")
      json.beginArray()
      for failure in failures {
        json.object { json in
          json.member("build", failure.build.name)
          json.member("folded", failure.build.isFolded)
          json.member("kind", failure.kind)
          json.member("tag", failure.pair?.tag)
          json.member("reason", failure.pair?.reason)
          json.member("other", failure.kind == "drop" && failure.pair == nil)
          json.key("share")
          Self.number(failure.share, &json)
        }
      }
      json.endArray()
    }
  }

  private static func write(
    _ row: BuildRow, _ json: inout JSONStream, flush: (inout JSONStream) -> Void
  ) {
    json.object { json in
      json.member("build", row.tally.name)
      json.member("folded", row.tally.isFolded)
      json.member("restores", row.tally.restores)
      json.member("partial", row.tally.partial)
      json.member("root", row.tally.root)
      json.key("partialShare")
      number(row.partialShare, &json)
      json.key("rootShare")
      number(row.rootShare, &json)
      json.key("partialChange")
      number(row.partialChange, &json)
      json.key("rootChange")
      number(row.rootChange, &json)
      json.key("drops")
      json.beginArray()
      for drop in row.drops {
        write(drop, &json)
        flush(&json)
      }
      json.endArray()
      json.key("other")
      if let other = row.other { write(other, &json) } else { json.null() }
    }
  }

  private static func write(_ drop: DropRow, _ json: inout JSONStream) {
    json.object { json in
      json.member("tag", drop.pair.tag)
      json.member("reason", drop.pair.reason)
      json.member("restores", drop.restores)
      json.member("routes", drop.routes)
      json.key("share")
      number(drop.share, &json)
      json.key("change")
      number(drop.change, &json)
    }
  }

  /// A share or a change as a fraction with 6 decimals (`0.012500`), or `null`.
  private static func number(_ value: Double?, _ json: inout JSONStream) {
    guard let value, value.isFinite else { return json.null() }
    json.raw(Array(String(format: "%.6f", value == 0 ? 0 : value).utf8))
  }

  private struct BadLineJSON: JSONWritable {
    var line: OutcomesCommand.BadLines.Line

    init(_ line: OutcomesCommand.BadLines.Line) { self.line = line }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("file", line.file)
        json.member("line", line.line)
        json.member("code", line.code)
        json.member("message", line.message)
      }
    }
  }
}

extension SummaryReport.DropRow: Equatable {}

extension ValueParser<Double> {
  /// A percentage from 0 to 100, with or without `%` (`1%`, `1` and `0.5`), as a fraction
  /// (`0.01`): digits with at most one point, nothing else.
  static var percentage: Self {
    ValueParser(expected: "a percentage from 0 to 100, such as 1% or 0.5") { text in
      let number = text.hasSuffix("%") ? text.dropLast() : Substring(text)
      guard !number.isEmpty, number.count <= 12,
        number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        number.filter({ $0 == "." }).count <= 1, let value = Double(number), value <= 100
      else { return nil }
      return value / 100
    }
  }
}
