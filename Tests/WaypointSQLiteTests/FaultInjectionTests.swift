import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Every store operation, with a fault injected at each of its SQLite calls in turn, for each result
/// code a disk, a lock or the allocator can give: no trap, a typed error or a root fallback with a
/// report, nothing half-written, the connection still usable, and the file, reopened without faults,
/// sound and holding every committed snapshot byte for byte.
@Suite("Snapshot store: a fault at every SQLite call")
struct FaultInjectionTests {
  /// The result codes injected at each call.
  static let codes: [ResultCode] = [
    .full, .ioError, .busy, .locked, .corrupt, .readOnly, .noMemory,
  ]

  @Test(
    "each operation survives a fault at its k-th SQLite call, for every k and every code",
    arguments: FaultedOperation.allCases)
  func everyCall(operation: FaultedOperation) throws {
    let directory = TemporaryDirectory.inMemoryWherePossible()
    defer { try? FileManager.default.removeAll(directory.url) }
    let template = try FaultFixture.makeTemplate(in: directory)
    let baseline = try operation.baseline(template: template, directory: directory)
    #expect(baseline.calls.count > 0, "\(operation) made no SQLite call")
    var injected = 0
    for k in 1...baseline.calls.count {
      for code in Self.codes {
        let label = "\(operation) with \(code) at call \(k) (\(baseline.calls[k - 1]))"
        let path = directory.path("\(operation)-\(k)-\(code.rawValue).sqlite")
        try FileManager.default.copyItem(atPath: template.path, toPath: path)
        let plan = FaultPlan(failing: k, with: code)
        try operation.runFaulted(
          path: path, plan: plan, template: template, baseline: baseline, label: label)
        #expect(plan.injected != nil, "\(label): the fault was never reached")
        injected += 1
        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: path + suffix)
        }
      }
    }
    // Again with SQLITE_IOERR at the k-th call, and every ROLLBACK after it failing too: the
    // connection is left inside the transaction, which the next use must end first.
    var rollbacksFailed = 0
    for k in 1...baseline.calls.count {
      let label = "\(operation) with IOERR at call \(k) and failing ROLLBACKs"
      let path = directory.path("\(operation)-\(k)-rollback.sqlite")
      try FileManager.default.copyItem(atPath: template.path, toPath: path)
      let plan = FaultPlan(failing: k, with: .ioError)
      plan.failsRollbacks = true
      try operation.runFaulted(
        path: path, plan: plan, template: template, baseline: baseline, label: label)
      injected += 1
      rollbacksFailed += plan.failedRollbacks
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    let sites = Set(baseline.calls.map(\.description))
    print(
      "fault injection: \(operation): \(baseline.calls.count) calls (\(sites.count) distinct call/SQL pairs) × \(Self.codes.count) codes + \(baseline.calls.count) with failing ROLLBACKs (\(rollbacksFailed) ROLLBACKs failed) = \(injected) faults injected"
    )
    if let folder = ProcessInfo.processInfo.environment["WAYPOINT_FAULT_SITES"] {
      try sites.sorted().joined(separator: "\n").write(
        toFile: "\(folder)/\(operation).txt", atomically: true, encoding: .utf8)
    }
  }

  @Test(
    "a failed ROLLBACK is not ignored: the next transaction ends it first, or fails touching nothing"
  )
  func failedRollback() throws {
    let directory = TemporaryDirectory()
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home]), scene: "A")
    // The INSERT fails, then the ROLLBACK after it: the transaction stays open on the connection.
    store.injectFaults(
      FaultInjector { call, sql in
        if call == .step && (sql ?? "").hasPrefix("INSERT") { return ResultCode.full.rawValue }
        if call == .exec && sql == "ROLLBACK" { return ResultCode.ioError.rawValue }
        return nil
      })
    expectStoreError(.diskFull(path: store.path)) {
      try store.save(try snapshot([.settings]), scene: "A")
    }
    #expect(store.database.isInTransaction)
    // While ROLLBACK keeps failing, later operations fail with its error and do not run inside the
    // leftover transaction.
    #expect(throws: StoreError.self) { try store.save(try snapshot([.item(id: 2)]), scene: "A") }
    #expect(throws: StoreError.self) { _ = try store.history(scene: "A") }
    #expect(store.database.isInTransaction)
    store.injectFaults(nil)
    // The next operation rolls the leftover transaction back and runs normally.
    #expect(try store.history(scene: "A").count == 1)
    #expect(!store.database.isInTransaction)
    try store.save(try snapshot([.item(id: 3)]), scene: "A")
    #expect(try store.history(scene: "A").count == 2)
  }
}

/// Counts the calls through the seam and fails the chosen one.
final class FaultPlan: @unchecked Sendable {
  private let lock = NSLock()
  private let failing: Int?
  let code: ResultCode
  private(set) var calls: [FaultSite] = []
  private(set) var injected: FaultSite?
  /// Whether every `ROLLBACK` after the failed call fails too (with the same code).
  var failsRollbacks = false
  /// How many `ROLLBACK`s were failed.
  private(set) var failedRollbacks = 0
  /// Called before each call is made (or failed), with the call's 1-based number.
  var observe: ((Int) -> Void)?

  init(failing: Int?, with code: ResultCode) {
    self.failing = failing
    self.code = code
  }

  var injector: FaultInjector { FaultInjector { call, sql in self.record(call, sql) } }

  @discardableResult
  func record(_ call: SQLiteCall, _ sql: String?) -> Int32? {
    lock.lock()
    let site = FaultSite(call: call, sql: sql)
    calls.append(site)
    let number = calls.count
    var fail = number == failing
    if fail { injected = site }
    if failsRollbacks, let failing, number > failing, call == .exec, sql == "ROLLBACK" {
      fail = true
      failedRollbacks += 1
    }
    let observe = observe
    lock.unlock()
    observe?(number)
    return fail ? code.rawValue : nil
  }
}

/// One call through the seam: which C function, with which SQL.
struct FaultSite: Hashable, CustomStringConvertible {
  var call: SQLiteCall
  var sql: String?
  var description: String {
    "\(call) \(sql.map { String($0.split(whereSeparator: \.isNewline).joined(separator: " ").prefix(70)) } ?? "-")"
  }
}

extension TemporaryDirectory {
  /// A fresh directory on a tmpfs (`/dev/shm`) where the system has one, else in the temporary
  /// directory: the same SQLite files, without waiting for the disk at every checkpoint, so that
  /// thousands of runs take seconds.
  static func inMemoryWherePossible() -> TemporaryDirectory {
    guard FileManager.default.isWritableFile(atPath: "/dev/shm") else {
      return TemporaryDirectory()
    }
    return TemporaryDirectory(
      url: URL(fileURLWithPath: "/dev/shm").appendingPathComponent(
        "waypoint-store-\(UUID().uuidString)"))
  }

  init(url: URL) {
    self.url = url
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
}

extension FileManager {
  fileprivate func removeAll(_ url: URL) throws { try removeItem(at: url) }
}
