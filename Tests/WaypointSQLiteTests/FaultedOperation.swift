import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite
@testable import WaypointTools

/// The store file every faulted operation starts from: scene `A` with three snapshots (the latest
/// restored once and not confirmed), scene `B` with one, and scene `bad` whose latest snapshot names
/// a route type the registry does not know (it restores to the root and is quarantined).
struct FaultFixture {
  let path: String
  /// The rows of the `snapshot` table, byte for byte.
  let rows: [[Data?]]
  /// The ids of scene A's snapshots, oldest first.
  let sceneA: [Int64]

  static func makeTemplate(in directory: TemporaryDirectory) throws -> FaultFixture {
    let path = directory.path("template.sqlite")
    var sceneA: [Int64] = []
    do {
      let store = try SnapshotStore(path: path)
      let start = Date(timeIntervalSince1970: 1_790_000_000)
      for (offset, routes) in [[Route.home], [.item(id: 1)], [.home, .item(id: 2)]].enumerated() {
        let saved = try store.save(
          try snapshot(routes, savedAt: start.addingTimeInterval(Double(offset))), scene: "A")
        sceneA.append(saved.snapshotID)
      }
      try store.save(try snapshot([.settings], savedAt: start), scene: "B")
      try store.save(
        SceneSnapshot(
          metadata: SnapshotMetadata(routeSchemaVersion: 1, savedAt: start),
          stacks: ["main": [RouteRecord(tag: "Gone.Route", json: "{}")]]),
        scene: "bad")
      _ = store.restore(scene: "A", with: restorer)
    }
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    return FaultFixture(path: path, rows: try StoreRows.read(path), sceneA: sceneA)
  }
}

/// What a fault-free run of an operation did: its calls through the seam, every state of the file it
/// committed (normalized, see ``StoreRows/normalized(_:)``), and what it answered.
struct FaultBaseline {
  var calls: [FaultSite]
  var states: Set<[[Data?]]>
  var answer: String
}

/// The operations run with a fault at each of their calls.
enum FaultedOperation: String, CaseIterable, CustomStringConvertible, Sendable {
  case openNew, openExisting, save, conditionalSave, restore, restoreUnrestorable, confirmRestore
  case history, rollback, discard, prune, importSnapshots, backup, check, streaming

  var description: String { rawValue }

  /// Runs the operation on a store without faults, recording its calls and the states it commits.
  func baseline(template: FaultFixture, directory: TemporaryDirectory) throws -> FaultBaseline {
    let path = directory.path("baseline-\(self).sqlite")
    let plan = FaultPlan(failing: nil, with: .ok)
    switch self {
    case .openNew, .openExisting:
      if self == .openExisting {
        try FileManager.default.copyItem(atPath: template.path, toPath: path)
      }
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(), access: .readWrite,
        migrations: SchemaMigration.all, faults: plan.injector)
      return FaultBaseline(calls: plan.calls, states: [], answer: "opened")
    case .check:
      let check = try SnapshotStore.check(
        path: template.path, full: true, configuration: StoreConfiguration(), faults: plan.injector)
      return FaultBaseline(calls: plan.calls, states: [], answer: "\(check)")
    default:
      try FileManager.default.copyItem(atPath: template.path, toPath: path)
      let store = try SnapshotStore(path: path)
      let reader = try Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: 1000)
      let masked = masked
      var states: Set<[[Data?]]> = [
        StoreRows.normalized(try StoreRows.read(reader), masking: masked)
      ]
      // What another connection sees before each call: every state committed on the way.
      plan.observe = { _ in
        if let rows = try? StoreRows.read(reader) {
          states.insert(StoreRows.normalized(rows, masking: masked))
        }
      }
      store.injectFaults(plan.injector)
      let answer = try perform(store, template: template)
      store.injectFaults(nil)
      plan.observe = nil
      states.insert(StoreRows.normalized(try StoreRows.read(reader), masking: masked))
      return FaultBaseline(calls: plan.calls, states: states, answer: answer)
    }
  }

  /// The operation itself; returns what it answered, in words, to compare with the fault-free run.
  func perform(_ store: SnapshotStore, template: FaultFixture) throws(StoreError) -> String {
    switch self {
    case .openNew, .openExisting, .check:
      return "opened"
    case .save:
      return "\(try store.save(try! snapshot([.item(id: 7)]), scene: "A"))"
    case .conditionalSave:
      let result = try store.save(
        try! snapshot([.item(id: 8)]), scene: "A", ifLatestIs: template.sceneA.last!)
      return result.map { "\($0)" } ?? "not the latest"
    case .restore:
      return Self.describe(store.restore(scene: "A", with: restorer))
    case .restoreUnrestorable:
      return Self.describe(store.restore(scene: "bad", with: restorer))
    case .confirmRestore:
      try store.confirmRestore(scene: "A")
      return "confirmed"
    case .history:
      return try store.history(scene: "A").map { "\($0.id) \($0.byteCount)" }.joined(separator: ",")
    case .rollback:
      return "\(try store.rollback(scene: "A", to: template.sceneA[0]))"
    case .discard:
      return "\(try store.discard(scenes: ["B"]))"
    case .prune:
      return "\(try store.prune(keepingLatest: 1))"
    case .importSnapshots:
      let committed = try store.importSnapshots { importer throws(StoreError) in
        for id in 1...3 {
          try importer.insert(
            try! snapshot(
              [.item(id: 100 + id)], savedAt: Date(timeIntervalSince1970: 1_790_000_100)),
            scene: "imported")
        }
        return true
      }
      return "\(committed)"
    case .backup:
      try store.backup(to: store.path + ".backup")
      return "backed up"
    case .streaming:
      var all: [String] = []
      try store.forEachSnapshot { stored in
        all.append("\(stored.info.id):\(stored.document.data?.count ?? -1)")
        return true
      }
      try store.forEachLatestSnapshot { stored in
        all.append("latest \(stored.info.id)")
        return true
      }
      return all.joined(separator: ",")
    }
  }

  /// Columns left out when comparing with the fault-free run: a restore's count, checked apart.
  var masked: Set<Int> { self == .restore || self == .restoreUnrestorable ? [10] : [] }

  static func describe(_ restoration: StoreRestoration) -> String {
    let report = restoration.report
    guard report.outcome != .root else {
      return "root: " + report.dropped.map { "\($0.reason)" }.joined(separator: "; ")
    }
    return "\(report.outcome): \((try? restoration.scene.routes(Route.self)) ?? [])"
  }

  /// Runs the operation on a copy of the template with the plan's fault, and checks what the issue
  /// asks of every fault.
  func runFaulted(
    path: String, plan: FaultPlan, template: FaultFixture, baseline: FaultBaseline, label: String
  ) throws {
    switch self {
    case .openNew, .openExisting:
      try runOpen(path: path, plan: plan, template: template, label: label)
    case .check:
      do {
        let check = try SnapshotStore.check(
          path: path, full: true, configuration: StoreConfiguration(), faults: plan.injector)
        // A count that fails is left out, as documented. SQLITE_CORRUPT from the integrity check's
        // own steps is its finding; no other fault changes the verdict.
        let damageReported =
          plan.code == .corrupt && plan.injected?.sql?.hasPrefix("PRAGMA integrity_check") == true
        #expect(
          check.integrityProblems.isEmpty != damageReported, "\(label): \(check.integrityProblems)")
      } catch {
        #expect(!error.description.isEmpty, "\(label)")
      }
      #expect(try StoreRows.read(path) == template.rows, "\(label): check changed the file")
      #expect(try StoreRows.integrity(path) == "ok", "\(label)")
    default:
      try runOnStore(path: path, plan: plan, template: template, baseline: baseline, label: label)
    }
  }

  private func runOnStore(
    path: String, plan: FaultPlan, template: FaultFixture, baseline: FaultBaseline, label: String
  ) throws {
    var expected: [[Data?]]
    do {
      let store = try SnapshotStore(path: path)
      store.injectFaults(plan.injector)
      let answer: Result<String, StoreError> = Result { () throws(StoreError) in
        try perform(store, template: template)
      }
      store.injectFaults(nil)
      let after = try StoreRows.read(path)
      let known = baseline.states.contains(StoreRows.normalized(after, masking: masked))
      #expect(known, "\(label): the file holds a state the fault-free run never committed")
      if self == .restore || self == .restoreUnrestorable {
        // A restore's count and its quarantine mark are two transactions; either may fail alone,
        // and a count moves by one at most.
        for (row, before) in zip(after, template.rows) {
          let count = row[10].flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? -1
          let old = before[10].flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? -1
          #expect(count == old || count == old + 1, "\(label): count \(old) -> \(count)")
        }
      }
      switch answer {
      case .success(let text) where self == .restore || self == .restoreUnrestorable:
        // The same scene, or the root with the reason the store was unavailable.
        #expect(
          text == baseline.answer || text.hasPrefix("root: ") && text.contains("store"),
          "\(label): \(text)")
      case .success(let text):
        #expect(text == baseline.answer, "\(label): answered \(text)")
      case .failure(let error):
        #expect(!error.description.isEmpty)
        if error.code == .sqlite {
          let sqlite = error.underlying as? SQLiteError
          #expect(sqlite != nil && sqlite?.code != .ok, "\(label): \(error)")
        }
      }
      if self == .backup {
        let backup = path + ".backup"
        if FileManager.default.fileExists(atPath: backup) {
          #expect(try StoreRows.read(backup) == template.rows, "\(label): incomplete backup")
          #expect(try StoreRows.integrity(backup) == "ok", "\(label)")
        }
        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: backup + suffix)
        }
      }
      // The connection still works.
      try store.save(try snapshot([.item(id: 99)]), scene: "Z")
      #expect(try store.history(scene: "Z").count == 1, "\(label)")
      expected = try StoreRows.read(path)
    }
    // Reopened without faults: sound, and every committed snapshot there byte for byte.
    let reopened = try SnapshotStore(path: path)
    #expect(reopened.recovery == nil, "\(label)")
    #expect(try StoreRows.integrity(path) == "ok", "\(label)")
    #expect(try StoreRows.read(path) == expected, "\(label)")
  }

  private func runOpen(path: String, plan: FaultPlan, template: FaultFixture, label: String) throws
  {
    if self == .openNew { try FileManager.default.removeItem(atPath: path) }
    var movedTo: String?
    do {
      let store = try SnapshotStore(
        path: path, configuration: StoreConfiguration(), access: .readWrite,
        migrations: SchemaMigration.all, faults: plan.injector)
      store.injectFaults(nil)
      movedTo = store.recovery?.movedTo
      #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion, "\(label)")
      try store.save(try snapshot([.item(id: 99)]), scene: "Z")
      #expect(try store.history(scene: "Z").count == 1, "\(label)")
    } catch {
      // A typed error naming the file.
      #expect(error is StoreError && "\(error)".contains(path), "\(label): \(error)")
    }
    if let movedTo, self == .openExisting {
      // SQLITE_CORRUPT at open moves the file aside whole: every snapshot is still in it.
      #expect(try StoreRows.read(movedTo) == template.rows, "\(label)")
      #expect(try StoreRows.integrity(movedTo) == "ok", "\(label)")
    }
    let reopened = try SnapshotStore(path: path)
    #expect(reopened.recovery == nil, "\(label)")
    #expect(reopened.schemaVersion == SnapshotStore.supportedSchemaVersion, "\(label)")
    #expect(try StoreRows.integrity(path) == "ok", "\(label)")
    let rows = try StoreRows.read(path)
    if self == .openExisting && movedTo == nil {
      #expect(Array(rows.prefix(template.rows.count)) == template.rows, "\(label)")
    }
  }
}

/// The `snapshot` table's rows read through a separate, fault-free, read-only connection.
enum StoreRows {
  static let columns =
    "id, scene_id, saved_at, format, route_schema_version, app_build, document, quarantine, quarantine_detail, quarantined_at, unconfirmed_restores"

  static func read(_ path: String) throws -> [[Data?]] {
    try read(try Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: 1000))
  }

  static func read(_ db: Database) throws -> [[Data?]] {
    try db.rows("SELECT \(columns) FROM snapshot ORDER BY id") { row in
      (0..<11).map { _ in row.blob() }
    }
  }

  static func integrity(_ path: String) throws -> String? {
    let db = try Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: 1000)
    return try db.scalar("PRAGMA integrity_check") { $0.text() } ?? nil
  }

  /// The rows with the times an operation takes from the clock (save time, quarantine time) set to
  /// one value, so that a run can be compared with the fault-free run a second away.
  static func normalized(_ rows: [[Data?]], masking masked: Set<Int> = []) -> [[Data?]] {
    rows.map { row in
      var row = row
      for column in masked { row[column] = nil }
      row[2] = nil
      row[9] = row[9] == nil ? nil : Data()
      if let document = row[6],
        var decoded = try? SceneSnapshot(decoding: document, limits: .default)
      {
        decoded.metadata.savedAt = Date(timeIntervalSince1970: 0)
        row[6] = decoded.encoded()
      }
      return row
    }
  }
}
