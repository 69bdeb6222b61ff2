import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

/// How big and how long a run is.
struct Settings {
  /// Snapshots in the big store (save and restore at scale, the command-line tools).
  var bigStore: Int
  /// Snapshots in the small store.
  var smallStore = 1000
  /// Interleaved rounds of the save and restore contenders, after `warmUp` unrecorded ones.
  var rounds: Int
  var warmUp: Int
  /// Spawns of each launch contender (interleaved).
  var launches: Int
  /// Runs of each command-line tool (and of the raw read `validate` is compared with); each figure
  /// is the median of these runs.
  var toolRounds: Int
  /// Lines of the file `waypoint import` reads (its store is the one `export` writes out).
  var importLines: Int
  /// Navigation changes timed on the main actor.
  var navigatorChanges: Int
  /// Restore outcome records `waypoint outcomes summarize` reads (a file built once in the cache).
  var outcomeRecords: Int
  var seed: UInt64 = 10

  static let full = Settings(
    bigStore: 1_000_000, rounds: 3000, warmUp: 200, launches: 40, toolRounds: 3,
    importLines: 50_000, navigatorChanges: 4000, outcomeRecords: 5_000_000)
  static let quick = Settings(
    bigStore: 10_000, rounds: 400, warmUp: 50, launches: 30, toolRounds: 3, importLines: 5_000,
    navigatorChanges: 1000, outcomeRecords: 200_000)
}

/// The scenes the save contenders cycle over, as an app with many windows (or many saves of a
/// few) would: every save finds its scene's latest snapshot where a real one would.
let benchmarkScenes = 50

/// One run of the benchmark.
struct Benchmark {
  let settings: Settings
  let directory: URL
  /// With `--json`, the readable report goes to stderr and stdout gets the JSON alone.
  let json: Bool

  func log(_ line: String) {
    if json {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    } else {
      print(line)
    }
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func run() async throws -> Results {
    var results = Results()
    log(Machine.description)
    log(
      "\(settings.bigStore == 1_000_000 ? "full" : "quick") run: \(settings.rounds) rounds "
        + "(after \(settings.warmUp) unrecorded), big store \(settings.bigStore) snapshots, "
        + "small store \(settings.smallStore), \(benchmarkScenes) scenes saved round-robin, "
        + "seed \(settings.seed)")
    let bigPath = try StoreBuilder.cached(count: settings.bigStore, log: log)
    let smallPath = path("small.sqlite")
    try StoreBuilder.build(at: smallPath, count: settings.smallStore)
    try saveAndRestore(small: smallPath, big: bigPath, into: &results)
    try launch(into: &results)
    results.navigatorChange = try await NavigatorBenchmark.changeMicroseconds(
      changes: settings.navigatorChanges, in: directory, log: log)
    let restores = try await NavigatorBenchmark.restoreMicroseconds(
      store: path("launch.sqlite"), rounds: settings.launches * 5, log: log)
    results.mainActorRestoreMedian = restores.open.median
    results.mainActorRestoreP99 = restores.open.percentile(0.99)
    try tools(bigPath, into: &results)
    if settings.bigStore == Settings.full.bigStore {
      results.appCodeBytes = AppCodeSize.measure(log: log)
    } else {
      log("")
      log("app code size: left out of a quick run (Scripts/app-code-size measures it)")
    }
    log("")
    log(results.json)
    return results
  }

  // MARK: Save and restore, interleaved

  private func saveAndRestore(
    small smallPath: String, big bigPath: String, into results: inout Results
  ) throws {
    let small = try SnapshotStore(path: smallPath)
    let big = try SnapshotStore(path: bigPath)
    let raw = try RawStore(path: path("raw.sqlite"))
    let total = settings.warmUp + settings.rounds
    // A new state per round (the product differs), saved at one second per round. The snapshots
    // built beforehand are what a save is given; the route values are what an app has.
    let snapshots = (0..<total).map { Fixtures.snapshot(2_000_000 + $0) }
    let documents = snapshots.map { $0.encoded() }
    log("snapshot document: \(documents[0].count) bytes, \(Fixtures.routes(0).count + 2) routes")
    func scene(_ round: Int, _ prefix: String) -> String { "\(prefix)-\(round % benchmarkScenes)" }
    // The scene restored, in both stores and in the raw table.
    let restoreScene = "bench-restore"
    let restored = Fixtures.snapshot(1_999_999)
    for store in [small, big] {
      _ = try store.save(restored, scene: restoreScene)
      try store.confirmRestore(scene: restoreScene)
    }
    try raw.insert(scene: restoreScene, savedAt: 0, document: restored.encoded())
    // The unchanged save: each scene's state again, a later savedAt, as an app sends it.
    let unchangedBase = (0..<benchmarkScenes).map { Fixtures.snapshot(1_000_000_000 + $0) }
    for (index, state) in unchangedBase.enumerated() {
      _ = try small.save(state, scene: "unchanged-\(index)")
    }
    var unchangedWrote = 0
    // The record of a launch's restore, as the navigator makes it (its JSON line included).
    let described = small.restore(scene: restoreScene, with: restorer)
    try small.confirmRestore(scene: restoreScene)
    guard described.foundSnapshot else { throw BenchError("the restored scene has no snapshot") }
    typealias Contender = Interleaving.Contender
    var run = Interleaving([
      Contender(name: "raw insert") { round in
        try timed {
          try raw.insert(
            scene: scene(round, "save"), savedAt: Int64(round), document: documents[round])
        }
      },
      Contender(name: "encode") { round in
        timed { _ = snapshots[round].encodedLocatingSavedAt() }
      },
      Contender(name: "save 1k") { round in
        try timed { _ = try small.save(snapshots[round], scene: scene(round, "save")) }
      },
      // What an app does on a change: record its route values, then save.
      Contender(name: "save from routes") { round in
        try timed {
          _ = try small.save(
            Fixtures.snapshot(3_000_000 + round), scene: scene(round, "routes"))
        }
      },
      Contender(name: "save 1M") { round in
        try timed { _ = try big.save(snapshots[round], scene: scene(round, "save")) }
      },
      Contender(name: "unchanged save") { round in
        var same = unchangedBase[round % benchmarkScenes]
        same.metadata.savedAt += Double(round + 1)
        var wrote = false
        let elapsed = try timed {
          wrote = try small.save(same, scene: scene(round, "unchanged")).wrote
        }
        if wrote { unchangedWrote += 1 }
        return elapsed
      },
      Contender(name: "raw restore") { _ in
        try timed { _ = try raw.restore(scene: restoreScene) }
      },
      // A launch's restore as an app makes it: the restore, with its crash-loop bookkeeping, and
      // the confirmation once the UI is up.
      Contender(name: "restore 1k") { _ in
        var restoration: StoreRestoration?
        let elapsed = try timed {
          restoration = small.restore(scene: restoreScene, with: restorer)
          try small.confirmRestore(scene: restoreScene)
        }
        guard restoration?.report.outcome == .restored else {
          throw BenchError("a restore was not whole: \(String(describing: restoration?.report))")
        }
        return elapsed
      },
      Contender(name: "outcome record") { _ in
        timed {
          _ =
            described.outcome(
              appBuild: "3.1 (512)", routeSchemaVersion: registry.schemaVersion,
              restoredAt: Fixtures.baseDate, duration: .microseconds(120)
            )?.jsonLine
        }
      },
      Contender(name: "restore 1M") { _ in
        var restoration: StoreRestoration?
        let elapsed = try timed {
          restoration = big.restore(scene: restoreScene, with: restorer)
          try big.confirmRestore(scene: restoreScene)
        }
        guard restoration?.report.outcome == .restored else {
          throw BenchError("a restore was not whole: \(String(describing: restoration?.report))")
        }
        return elapsed
      },
    ])
    try run.run(rounds: settings.rounds, warmUp: settings.warmUp, seed: settings.seed)

    let rawInsert = run["raw insert"]
    let save = run["save 1k"]
    results.saveRatio = save.medianRatio(to: rawInsert)
    results.saveFromRoutesRatio = run["save from routes"].medianRatio(to: rawInsert)
    results.unchangedSaveRatio = run["unchanged save"].medianRatio(to: rawInsert)
    results.restoreRatio = run["restore 1k"].medianRatio(to: run["raw restore"])
    results.saveScaleRatio = run["save 1M"].medianRatio(to: save)
    results.restoreScaleRatio = run["restore 1M"].medianRatio(to: run["restore 1k"])
    results.outcomeRatio = run["outcome record"].medianRatio(to: run["restore 1k"])
    results.saveMedian = save.median
    results.saveFromRoutesMedian = run["save from routes"].median
    results.unchangedSaveMedian = run["unchanged save"].median
    results.restoreMedian = run["restore 1k"].median
    results.rawInsertMedian = rawInsert.median
    results.rawRestoreMedian = run["raw restore"].median

    log("")
    log(
      "contender".padding(toLength: 22, withPad: " ", startingAt: 0)
        + "     min  median    mean (µs)   per-round ratio (median) to")
    let rows: [(String, String?)] = [
      ("raw insert", nil), ("encode", nil), ("save 1k", "raw insert"),
      ("save from routes", "raw insert"), ("save 1M", "save 1k"),
      ("unchanged save", "raw insert"), ("raw restore", nil), ("restore 1k", "raw restore"),
      ("restore 1M", "restore 1k"), ("outcome record", "restore 1k"),
    ]
    for (name, baseline) in rows {
      let samples = run[name]
      var line =
        name.padding(toLength: 22, withPad: " ", startingAt: 0)
        + String(format: "%8.1f %7.1f %7.1f", samples.min, samples.median, samples.mean)
      if let baseline {
        line += String(
          format: "        %5.2f× %@", samples.medianRatio(to: run[baseline]), baseline as NSString)
      }
      log(line)
    }
    log(
      String(
        format:
          "slowest saves: 99th percentile %.0f µs, 99.9th %.0f µs, max %.0f µs (raw insert: %.0f, %.0f, %.0f)",
        save.percentile(0.99), save.percentile(0.999), save.percentile(1),
        rawInsert.percentile(0.99), rawInsert.percentile(0.999), rawInsert.percentile(1)))
    log("unchanged saves that wrote: \(unchangedWrote) of \(total)")
  }

  // MARK: Launch

  /// A launch to a restored scene: this executable spawned to restore one scene of ~12 routes
  /// through a navigator over a store, against the same executable reading a JSON file of the
  /// same scene and decoding it with `JSONDecoder` (what `@SceneStorage`-style apps do), spawns
  /// interleaved; wall times from spawn to exit.
  private func launch(into results: inout Results) throws {
    let store = path("launch.sqlite")
    let file = path("launch.json")
    try LaunchChild.prepare(store: store, file: file)
    let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    var navigator = Samples()
    var json = Samples()
    var generator = SeededGenerator(seed: settings.seed)
    for _ in 0..<settings.launches {
      for step in [true, false].shuffled(using: &generator) {
        let child = try runChild(
          own, step ? ["--launch-child", "navigator", store] : ["--launch-child", "json", file])
        guard child.status == 0 else {
          throw BenchError("the launch child exited \(child.status): \(child.standardError)")
        }
        if step {
          navigator.values.append(child.seconds * 1e6)
          // The rest of the app's session, which the timed child leaves out: the confirmation
          // once its screens are up and a save on each change, in a process that ends without
          // closing the store, as the app's would.
          let session = try runChild(own, ["--launch-child", "session", store])
          guard session.status == 0 else {
            throw BenchError(
              "the session child exited \(session.status): \(session.standardError)")
          }
        } else {
          json.values.append(child.seconds * 1e6)
        }
      }
    }
    results.launchRatio = navigator.median / json.median
    results.launchMedian = navigator.median
    log("")
    log(
      String(
        format:
          "launch to a restored scene (%d spawns each, interleaved): navigator over the store %.0f µs, JSON file + JSONDecoder %.0f µs (medians): %.2f×",
        settings.launches, navigator.median, json.median, results.launchRatio))
  }

  // MARK: The command-line tools

  private func tools(_ bigPath: String, into results: inout Results) throws {
    log("")
    guard let waypoint = waypointExecutable() else {
      log(
        "the waypoint executable is missing beside waypoint-bench: build it with "
          + "`swift build -c release --product waypoint`; the tools' figures are left out (null)")
      return
    }
    log(
      "tools: \(waypoint), each run \(settings.toolRounds) times (median; CPU is the child's "
        + "user + system time)")
    let manifest = path("manifest.json")
    try RouteManifest(registry: registry).encoded().write(to: URL(fileURLWithPath: manifest))

    // validate's CPU against a one-thread raw C read of every row, interleaved.
    var validate = Samples()
    var validateCPU = Samples()
    var rawRead = Samples()
    var generator = SeededGenerator(seed: settings.seed)
    var documents = 0
    for _ in 0..<settings.toolRounds {
      for step in [true, false].shuffled(using: &generator) {
        if step {
          let child = try runChild(waypoint, ["--db", bigPath, "validate", "--manifest", manifest])
          guard child.status == 0 else {
            throw BenchError("waypoint validate exited \(child.status): \(child.standardError)")
          }
          validate.values.append(child.seconds)
          validateCPU.values.append(child.cpuSeconds)
        } else {
          let start = clock()
          documents = try rawReadEveryPayload(bigPath).documents
          rawRead.values.append(Double(clock() - start) / Double(CLOCKS_PER_SEC))
        }
      }
    }
    results.validateCPURatio = validateCPU.median / rawRead.median
    log(
      String(format: "validate over %d snapshots: ", documents)
        + validate.describe(cpu: validateCPU)
        + String(
          format: "; raw C read of every row, one thread, CPU %.3f s: %.1f× in CPU",
          rawRead.median, results.validateCPURatio))

    // import of a JSON Lines file, then export of the store it made.
    let lines = path("import.jsonl")
    try Self.writeImportFile(lines, count: settings.importLines)
    var imports = Samples()
    var importsCPU = Samples()
    var exports = Samples()
    var exportsCPU = Samples()
    let imported = path("imported.sqlite")
    for _ in 0..<settings.toolRounds {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: imported + suffix)
      }
      let child = try runChild(waypoint, ["--db", imported, "import", lines])
      guard child.status == 0 else {
        throw BenchError("waypoint import exited \(child.status): \(child.standardError)")
      }
      imports.values.append(child.seconds)
      importsCPU.values.append(child.cpuSeconds)
      let output = path("export.jsonl")
      try? FileManager.default.removeItem(atPath: output)
      let export = try runChild(waypoint, ["--db", imported, "export", "--output", output])
      guard export.status == 0 else {
        throw BenchError("waypoint export exited \(export.status): \(export.standardError)")
      }
      exports.values.append(export.seconds)
      exportsCPU.values.append(export.cpuSeconds)
    }
    // Per second of the child's CPU time, as every tools row: a busy machine's wait for a core
    // is not the tool's.
    let count = Double(settings.importLines)
    results.importLinesPerSecond = count / importsCPU.median
    results.exportSnapshotsPerSecond = count / exportsCPU.median
    log(
      String(format: "import of %d lines: ", settings.importLines)
        + imports.describe(cpu: importsCPU)
        + String(format: ", %.0f lines per CPU second", results.importLinesPerSecond))
    log(
      String(format: "export of %d snapshots: ", settings.importLines)
        + exports.describe(cpu: exportsCPU)
        + String(format: ", %.0f snapshots per CPU second", results.exportSnapshotsPerSecond))

    // outcomes summarize over a fleet's records, streamed: throughput and peak memory.
    let records = try OutcomeFleet.cached(count: settings.outcomeRecords, log: log)
    var summaries = Samples()
    var summariesCPU = Samples()
    var peakRSS = 0
    for _ in 0..<settings.toolRounds {
      let child = try runChild(waypoint, ["outcomes", "summarize", records])
      guard child.status == 0 else {
        throw BenchError(
          "waypoint outcomes summarize exited \(child.status): \(child.standardError)")
      }
      summaries.values.append(child.seconds)
      summariesCPU.values.append(child.cpuSeconds)
      // The tool's own high-water mark where /proc has it: wait4's includes this process's.
      peakRSS = max(peakRSS, child.ownPeakRSSBytes ?? child.peakRSSBytes)
    }
    results.summarizeRecordsPerSecond = Double(settings.outcomeRecords) / summariesCPU.median
    results.summarizePeakRSSMB = Double(peakRSS) / 1_048_576
    log(
      String(format: "outcomes summarize of %d records: ", settings.outcomeRecords)
        + summaries.describe(cpu: summariesCPU)
        + String(
          format: ", %.0f records per CPU second (goal: 200000), peak RSS %.1f MB (goal: 64)",
          results.summarizeRecordsPerSecond, results.summarizePeakRSSMB))
  }

  /// `count` lines as `waypoint export` writes them, one scene each.
  static func writeImportFile(_ path: String, count: Int) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw BenchError("cannot write \(path)")
    }
    defer { try? handle.close() }
    var chunk = Data()
    for index in 0..<count {
      let snapshot = Fixtures.snapshot(3_000_000 + index)
      chunk.append(
        contentsOf: Array(
          "{\"id\":\(index + 1),\"scene\":\"\(Fixtures.sceneID(3_000_000 + index))\",\"savedAt\":\"\(snapshot.metadata.savedAt.formatted(.iso8601))\",\"quarantine\":null,\"document\":"
            .utf8))
      chunk.append(snapshot.encoded())
      chunk.append(contentsOf: Array("}\n".utf8))
      if chunk.count > 1 << 20 {
        try handle.write(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: chunk)
  }
}

/// The figures of a run; `json` is the object `--json` prints.
struct Results {
  var saveRatio = Double.nan
  var saveFromRoutesRatio = Double.nan
  var unchangedSaveRatio = Double.nan
  var restoreRatio = Double.nan
  var launchRatio = Double.nan
  var navigatorChange = Double.nan
  var saveScaleRatio = Double.nan
  var restoreScaleRatio = Double.nan
  var outcomeRatio = Double.nan
  var validateCPURatio = Double.nan
  var importLinesPerSecond = Double.nan
  var exportSnapshotsPerSecond = Double.nan
  var summarizeRecordsPerSecond = Double.nan
  var summarizePeakRSSMB = Double.nan
  var appCodeBytes = Double.nan
  var saveMedian = Double.nan
  var saveFromRoutesMedian = Double.nan
  var unchangedSaveMedian = Double.nan
  var restoreMedian = Double.nan
  var rawInsertMedian = Double.nan
  var rawRestoreMedian = Double.nan
  var launchMedian = Double.nan
  var mainActorRestoreMedian = Double.nan
  var mainActorRestoreP99 = Double.nan

  var json: String {
    let members: [(String, Double)] = [
      ("save_ratio_vs_raw_c", saveRatio),
      ("save_from_routes_ratio_vs_raw_c", saveFromRoutesRatio),
      ("unchanged_save_ratio", unchangedSaveRatio),
      ("restore_ratio_vs_raw_decode", restoreRatio),
      ("launch_ratio_vs_json_file", launchRatio),
      ("navigator_change_us", navigatorChange),
      ("save_scale_ratio", saveScaleRatio),
      ("restore_scale_ratio", restoreScaleRatio),
      ("outcome_record_ratio_vs_restore", outcomeRatio),
      ("validate_cpu_ratio_vs_raw_read", validateCPURatio),
      ("import_lines_per_s", importLinesPerSecond),
      ("export_snapshots_per_s", exportSnapshotsPerSecond),
      ("summarize_records_per_s", summarizeRecordsPerSecond),
      ("summarize_peak_rss_mb", summarizePeakRSSMB),
      ("app_code_bytes", appCodeBytes),
      ("save_median_us", saveMedian),
      ("save_from_routes_median_us", saveFromRoutesMedian),
      ("unchanged_save_median_us", unchangedSaveMedian),
      ("restore_median_us", restoreMedian),
      ("raw_insert_median_us", rawInsertMedian),
      ("raw_restore_median_us", rawRestoreMedian),
      ("launch_median_us", launchMedian),
      ("main_actor_restore_median_us", mainActorRestoreMedian),
      ("main_actor_restore_p99_us", mainActorRestoreP99),
    ]
    // JSON has no NaN: a figure that was not measured is null.
    let body = members.map { name, value in
      "\"\(name)\":"
        + (!value.isFinite
          ? "null"
          : abs(value) >= 1000 ? String(format: "%.0f", value) : String(format: "%.4g", value))
    }
    return "{" + body.joined(separator: ",") + "}"
  }
}

/// The machine, for the head of the report.
enum Machine {
  static var description: String {
    let cpu =
      (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }
      .map {
        $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
          ?? ""
      }
      ?? "unknown CPU"
    return
      "waypoint-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)), "
      + "SQLite \(SQLiteLibrary.version), WAL, synchronous=NORMAL"
  }
}
