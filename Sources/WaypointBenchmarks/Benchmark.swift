import Foundation
import Waypoint
import WaypointSQLite

/// How big and how long a run is.
struct Settings {
  /// Snapshots in the big store (save, restore and open at scale, the command-line tools).
  var bigStore: Int
  /// Snapshots in the small store.
  var smallStore = 1000
  /// Interleaved rounds of the save and restore contenders, after `warmUp` unrecorded ones.
  var rounds: Int
  var warmUp: Int
  /// Opens of the big store.
  var opens: Int
  /// Runs of each command-line tool (and of the raw read `validate` is compared with); each figure
  /// is the median of these runs.
  var toolRounds: Int
  /// Lines of the file `waypoint import` reads (its store is the one `export` writes out).
  var importLines: Int
  var seed: UInt64 = 10

  static let full = Settings(
    bigStore: 1_000_000, rounds: 3000, warmUp: 200, opens: 5, toolRounds: 3, importLines: 50_000)
  static let quick = Settings(
    bigStore: 10_000, rounds: 400, warmUp: 50, opens: 3, toolRounds: 5, importLines: 5_000)
}

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

  func run() throws -> Results {
    var results = Results()
    log(Machine.description)
    log(
      "\(settings.bigStore == 1_000_000 ? "full" : "quick") run: \(settings.rounds) rounds "
        + "(after \(settings.warmUp) unrecorded), big store \(settings.bigStore) snapshots, "
        + "small store \(settings.smallStore), seed \(settings.seed)")
    let bigPath = try StoreBuilder.cached(count: settings.bigStore, log: log)
    let smallPath = path("small.sqlite")
    try StoreBuilder.build(at: smallPath, count: settings.smallStore)
    try saveAndRestore(small: smallPath, big: bigPath, into: &results)
    try open(bigPath, into: &results)
    try tools(bigPath, into: &results)
    log("")
    log(results.json)
    return results
  }

  // MARK: Save and restore, interleaved

  private func saveAndRestore(
    small smallPath: String, big bigPath: String, into results: inout Results
  )
    throws
  {
    let small = try SnapshotStore(path: smallPath)
    let big = try SnapshotStore(path: bigPath)
    let raw = try RawStore(path: path("raw.sqlite"))
    let smallFrames = WALFrames(database: smallPath)
    let rawFrames = WALFrames(database: raw.path)
    let total = settings.warmUp + settings.rounds
    // A new snapshot per round (the product differs), saved at one second per round.
    let snapshots = (0..<total).map { Fixtures.snapshot(2_000_000 + $0) }
    // The bytes a save stores: the raw insert stores the same bytes, so that the two compare
    // the same write.
    let documents = snapshots.map { $0.encoded() }
    log("snapshot document: \(documents[0].count) bytes")
    // The scenes restored, in both stores and in the raw table.
    let restoreScene = "bench-restore"
    let restored = Fixtures.snapshot(1_999_999)
    for store in [small, big] {
      _ = try store.save(restored, scene: restoreScene)
      try store.confirmRestore(scene: restoreScene)
    }
    try raw.insert(scene: restoreScene, savedAt: 0, document: restored.encoded())
    // The unchanged save: the same state each round, a later savedAt, as an app sends it.
    let unchangedScene = "bench-unchanged"
    let unchangedBase = Fixtures.snapshot(1_999_998)
    _ = try small.save(unchangedBase, scene: unchangedScene)
    var unchangedWrote = 0
    var smallFramesAdded: [UInt32] = []
    var rawFramesAdded: [UInt32] = []
    let file = FileRewrite(
      path: path("scenes.json"), documents: (0..<50).map { Fixtures.snapshot($0).encoded() })
    var restoreDrops = 0
    typealias Contender = Interleaving.Contender
    var run = Interleaving([
      Contender(name: "raw insert") { round in
        let before = rawFrames.current()
        let elapsed = try timed {
          try raw.insert(scene: "bench-save", savedAt: Int64(round), document: documents[round])
        }
        if round >= settings.warmUp {
          rawFramesAdded.append(WALFrames.added(from: before, to: rawFrames.current()))
        }
        return elapsed
      },
      // What a save encodes.
      Contender(name: "encode") { round in
        timed { _ = snapshots[round].encodedLocatingSavedAt() }
      },
      Contender(name: "save 1k") { round in
        let before = smallFrames.current()
        let elapsed = try timed { _ = try small.save(snapshots[round], scene: "bench-save") }
        if round >= settings.warmUp {
          smallFramesAdded.append(WALFrames.added(from: before, to: smallFrames.current()))
        }
        return elapsed
      },
      Contender(name: "save 1M") { round in
        try timed { _ = try big.save(snapshots[round], scene: "bench-save") }
      },
      Contender(name: "unchanged save") { round in
        var same = unchangedBase
        same.metadata.savedAt = unchangedBase.metadata.savedAt.addingTimeInterval(Double(round + 1))
        var wrote = false
        let elapsed = try timed { wrote = try small.save(same, scene: unchangedScene).wrote }
        if wrote { unchangedWrote += 1 }
        return elapsed
      },
      Contender(name: "file rewrite") { round in
        try timed { try file.rewrite(slot: round, document: documents[round]) }
      },
      Contender(name: "raw restore") { _ in
        try timed { _ = try raw.restore(scene: restoreScene) }
      },
      Contender(name: "restore 1k") { _ in
        var restoration: StoreRestoration?
        let elapsed = timed { restoration = small.restore(scene: restoreScene, with: restorer) }
        guard restoration?.report.outcome == .restored else {
          throw BenchError("a restore was not whole: \(String(describing: restoration?.report))")
        }
        try small.confirmRestore(scene: restoreScene)
        return elapsed
      },
      Contender(name: "confirm 1k") { _ in
        // A real first call: the restore just before counted one unconfirmed restore.
        _ = small.restore(scene: restoreScene, with: restorer)
        return try timed { try small.confirmRestore(scene: restoreScene) }
      },
      Contender(name: "restore 1M") { _ in
        var restoration: StoreRestoration?
        let elapsed = timed { restoration = big.restore(scene: restoreScene, with: restorer) }
        if restoration?.report.outcome != .restored { restoreDrops += 1 }
        try big.confirmRestore(scene: restoreScene)
        return elapsed
      },
    ])
    // Every restore is confirmed, as the app does once its UI is up: the crash-loop guard never
    // fires between rounds.
    try run.run(rounds: settings.rounds, warmUp: settings.warmUp, seed: settings.seed)
    guard restoreDrops == 0 else { throw BenchError("\(restoreDrops) restores were not whole") }

    let rawInsert = run["raw insert"]
    let encode = run["encode"]
    let save = run["save 1k"]
    let storage = Samples(values: zip(save.values, encode.values).map { $0 - $1 })
    results.saveRatio = save.medianRatio(to: rawInsert)
    results.saveStorageRatio = storage.medianRatio(to: rawInsert)
    results.walPagesPerSave = mean(smallFramesAdded)
    results.unchangedSaveRatio = run["unchanged save"].medianRatio(to: rawInsert)
    results.restoreRatio = run["restore 1k"].medianRatio(to: run["raw restore"])
    results.saveVersusFileRewrite = save.mean / run["file rewrite"].mean
    results.saveScaleRatio = run["save 1M"].medianRatio(to: save)
    results.restoreScaleRatio = run["restore 1M"].medianRatio(to: run["restore 1k"])
    results.saveMedian = save.median
    results.restoreMedian = run["restore 1k"].median

    log("")
    log(
      "contender".padding(toLength: 22, withPad: " ", startingAt: 0)
        + "     min  median    mean (µs)   per-round ratio (median) to")
    let rows: [(String, String?)] = [
      ("raw insert", nil), ("encode", nil), ("save 1k", "raw insert"), ("save 1M", "save 1k"),
      ("unchanged save", "raw insert"), ("file rewrite", nil), ("raw restore", nil),
      ("restore 1k", "raw restore"), ("restore 1M", "restore 1k"), ("confirm 1k", "raw insert"),
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
        format: "save storage part (save − encode, per round) median %.1f µs: %.2f× raw insert",
        storage.median, results.saveStorageRatio))
    log(
      String(
        format: "WAL frames per save: %.2f (raw insert %.2f)", results.walPagesPerSave,
        mean(rawFramesAdded)))
    log(
      String(
        format: "save ÷ 50-scene file rewrite, ratio of means: %.2f×", results.saveVersusFileRewrite
      ))
    log(
      String(
        format:
          "slowest saves: 99th percentile %.0f µs, 99.9th %.0f µs, max %.0f µs (raw insert: %.0f, %.0f, %.0f)",
        save.percentile(0.99), save.percentile(0.999), save.percentile(1),
        rawInsert.percentile(0.99),
        rawInsert.percentile(0.999), rawInsert.percentile(1)))
    log("unchanged saves that wrote: \(unchangedWrote) of \(settings.warmUp + settings.rounds)")
  }

  private func mean(_ values: [UInt32]) -> Double {
    values.isEmpty ? .nan : Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count)
  }

  // MARK: Open

  private func open(_ bigPath: String, into results: inout Results) throws {
    var samples = Samples()
    for _ in 0..<settings.opens {
      samples.values.append(try timed { _ = try SnapshotStore(path: bigPath) } / 1000)
    }
    results.openBigMilliseconds = samples.median
    log("")
    log(
      String(
        format: "open of the %d-snapshot store (read-write, warm): min %.1f ms, median %.1f ms",
        settings.bigStore, samples.min, samples.median))
  }

  // MARK: The command-line tools

  private func tools(_ bigPath: String, into results: inout Results) throws {
    log("")
    // The store's size against what it holds: its pages in use and its WAL (free pages left by
    // trims are printed apart; their number depends on the runs the cached store has seen).
    // The documents' bytes as JSON (rows hold their stored form, smaller).
    let read = try documentBytes(bigPath)
    let pages = try pageBytes(bigPath)
    let wal =
      (try? FileManager.default.attributesOfItem(atPath: bigPath + "-wal")[.size] as? Int) ?? 0
    let size = pages.inUse + wal
    results.diskBytesPerDocumentByte = Double(size) / Double(max(1, read.bytes))
    log(
      String(
        format:
          "disk: %d bytes (pages in use %d, WAL %d; %d more in free pages) for %d documents of %d bytes: %.3f× the documents",
        size, pages.inUse, wal, pages.free, read.documents, read.bytes,
        results.diskBytesPerDocumentByte))
    guard let waypoint = waypointExecutable() else {
      log(
        "the waypoint executable is missing beside waypoint-bench: build it with "
          + "`swift build -c release --product waypoint`; the tools' figures are left out (NaN)")
      return
    }
    log(
      "tools: \(waypoint), each timed \(settings.toolRounds) times (wall time, median, min–max; "
        + "CPU is the child's user + system time)")
    let manifest = path("manifest.json")
    try RouteManifest(registry: registry).encoded().write(to: URL(fileURLWithPath: manifest))

    // validate against a raw C read of every payload, interleaved.
    var validate = Samples()
    var validateCPU = Samples()
    var rawRead = Samples()
    var peak = 0
    var generator = SeededGenerator(seed: settings.seed)
    for _ in 0..<settings.toolRounds {
      for step in [true, false].shuffled(using: &generator) {
        if step {
          let child = try runChild(waypoint, ["--db", bigPath, "validate", "--manifest", manifest])
          guard child.status == 0 else {
            throw BenchError("waypoint validate exited \(child.status): \(child.standardError)")
          }
          validate.values.append(child.seconds)
          validateCPU.values.append(child.cpuSeconds)
          peak = max(peak, child.peakRSSBytes)
        } else {
          rawRead.values.append(try timed { _ = try rawReadEveryPayload(bigPath) } / 1e6)
        }
      }
    }
    results.validateRatio = validate.median / rawRead.median
    results.validatePeakRSS = Double(peak) / 1_048_576
    log(
      String(
        format:
          "validate over %d snapshots: ", read.documents)
        + validate.describe(cpu: validateCPU)
        + String(
          format: " (raw C read of every payload %.3f s): %.1f×, peak RSS %.1f MB", rawRead.median,
          results.validateRatio, results.validatePeakRSS))

    // import of a JSON Lines file, then export of the store it made.
    let lines = path("import.jsonl")
    try Self.writeImportFile(lines, count: settings.importLines)
    var imports = Samples()
    var importsCPU = Samples()
    var exports = Samples()
    var exportsCPU = Samples()
    var redacted = Samples()
    var redactedCPU = Samples()
    let imported = path("imported.sqlite")
    for round in 0..<settings.toolRounds {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: imported + suffix)
      }
      let child = try runChild(waypoint, ["--db", imported, "import", lines])
      guard child.status == 0 else {
        throw BenchError("waypoint import exited \(child.status): \(child.standardError)")
      }
      imports.values.append(child.seconds)
      importsCPU.values.append(child.cpuSeconds)
      for redact in round.isMultiple(of: 2) ? [false, true] : [true, false] {
        let output = path("export.jsonl")
        try? FileManager.default.removeItem(atPath: output)
        let export = try runChild(
          waypoint, ["--db", imported, "export", "--output", output] + (redact ? ["--redact"] : []))
        guard export.status == 0 else {
          throw BenchError("waypoint export exited \(export.status): \(export.standardError)")
        }
        if redact {
          redacted.values.append(export.seconds)
          redactedCPU.values.append(export.cpuSeconds)
        } else {
          exports.values.append(export.seconds)
          exportsCPU.values.append(export.cpuSeconds)
        }
      }
    }
    let count = Double(settings.importLines)
    results.importLinesPerSecond = count / imports.median
    results.exportSnapshotsPerSecond = count / exports.median
    results.exportRedactedPerSecond = count / redacted.median
    log(
      String(
        format: "import of %d lines: ", settings.importLines)
        + imports.describe(cpu: importsCPU)
        + String(format: ", %.0f lines/s", results.importLinesPerSecond))
    // The wall time of `export` includes the fsync of its output before the file is renamed into
    // place: the disk's share, which varies from run to run more than the CPU time does.
    log(
      String(format: "export of %d snapshots: ", settings.importLines)
        + exports.describe(cpu: exportsCPU)
        + String(format: ", %.0f snapshots/s; --redact ", results.exportSnapshotsPerSecond)
        + redacted.describe(cpu: redactedCPU)
        + String(format: ", %.0f snapshots/s", results.exportRedactedPerSecond))
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
  var saveStorageRatio = Double.nan
  var walPagesPerSave = Double.nan
  var unchangedSaveRatio = Double.nan
  var restoreRatio = Double.nan
  var saveVersusFileRewrite = Double.nan
  /// The same, with each save's mean counting the store's thread's cost of checkpointing its
  /// frames (printed, not in `json`, whose keys the issue fixes).
  var saveWithCheckpointsVersusFileRewrite = Double.nan
  var saveScaleRatio = Double.nan
  var restoreScaleRatio = Double.nan
  var openBigMilliseconds = Double.nan
  var validateRatio = Double.nan
  var validatePeakRSS = Double.nan
  var importLinesPerSecond = Double.nan
  var exportSnapshotsPerSecond = Double.nan
  var exportRedactedPerSecond = Double.nan
  var diskBytesPerDocumentByte = Double.nan
  var saveMedian = Double.nan
  var restoreMedian = Double.nan

  var json: String {
    let members: [(String, Double)] = [
      ("save_ratio_vs_raw_c", saveRatio),
      ("save_storage_ratio_vs_raw_c", saveStorageRatio),
      ("wal_pages_per_save", walPagesPerSave),
      ("unchanged_save_ratio", unchangedSaveRatio),
      ("restore_ratio_vs_raw_decode", restoreRatio),
      ("save_ratio_vs_file_rewrite_mean", saveVersusFileRewrite),
      ("save_scale_ratio", saveScaleRatio),
      ("restore_scale_ratio", restoreScaleRatio),
      ("open_1m_ms", openBigMilliseconds),
      ("validate_ratio_vs_raw_read", validateRatio),
      ("validate_peak_rss_mb", validatePeakRSS),
      ("import_lines_per_s", importLinesPerSecond),
      ("export_snapshots_per_s", exportSnapshotsPerSecond),
      ("disk_bytes_per_document_byte", diskBytesPerDocumentByte),
      ("save_median_us", saveMedian),
      ("restore_median_us", restoreMedian),
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
