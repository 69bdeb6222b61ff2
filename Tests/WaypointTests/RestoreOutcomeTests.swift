import Foundation
import Testing
import Waypoint
import WaypointManifest

/// Route types of two releases, for the outcome records of an update's restores.
private enum Releases {
  enum RouteV1: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
    case faq
  }

  enum RouteV2: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int, tab: String)
  }

  static let v1 = RouteRegistry().registering(
    RouteV1.self, tag: "Out.Route", examples: [.home, .profile(userId: 1), .faq])

  static let v2 = RouteRegistry(schemaVersion: 2).registering(
    RouteV2.self, tag: "Out.Route", version: 2,
    migrations: [
      RouteMigration(
        from: 1,
        [.removeCase("faq"), .addField(case: "profile", name: "tab", default: .string("main"))])
    ],
    examples: [.home, .profile(userId: 1, tab: "t")])

  static let savedAt = Date(timeIntervalSince1970: 1_800_000_000)

  /// A release-1 snapshot: `main` holds home, profile(secret userId), faq; `account` holds faq.
  static func snapshot(userId: Int = 424_242) -> SceneSnapshot {
    SceneSnapshot(
      metadata: SnapshotMetadata(registry: v1, appBuild: "1.0 (100)", savedAt: savedAt),
      stacks: [
        "main": v1.records(for: [RouteV1.home, .profile(userId: userId), .faq]),
        "account": v1.records(for: [RouteV1.faq]),
      ])
  }
}

@Suite("Restore outcomes: the record an app sends")
struct RestoreOutcomeTests {
  private func outcome(
    _ scene: RestoredScene, hoursLater hours: Double = 26.5,
    options: RestoreOutcome.Options = RestoreOutcome.Options()
  ) -> RestoreOutcome {
    RestoreOutcome(
      scene, appBuild: "2.0 (200)", routeSchemaVersion: 2,
      restoredAt: Releases.savedAt.addingTimeInterval(hours * 3600),
      duration: .microseconds(1234), options: options)
  }

  @Test("an update's restore: removed cases dropped, a migrated route, whole hours, no values")
  func updateRecord() throws {
    let scene = Restorer(registry: Releases.v2).restore(Releases.snapshot())
    let record = outcome(scene)
    #expect(record.format == 1)
    #expect(record.outcome == .partial)
    #expect(record.appBuild == "2.0 (200)")
    #expect(record.routeSchemaVersion == 2)
    #expect(record.storedRouteSchemaVersion == 1)
    #expect(record.snapshotAgeHours == 26)
    #expect(record.durationMicroseconds == 1234)
    #expect(record.crashLoop == .none)
    #expect(
      record.items == [
        RestoreOutcome.Item(
          kind: .dropped, location: .stack, tag: "Out.Route", reason: "removedCase", count: 2),
        RestoreOutcome.Item(
          kind: .migrated, location: .stack, tag: "Out.Route", fromVersion: 1, toVersion: 2,
          count: 2),
      ])
    #expect(record.omittedItems == 0)

    let line = String(decoding: record.jsonLine, as: UTF8.self)
    // No value, no payload, no stack name.
    for secret in ["424242", "userId", "main", "account", "faq", "profile"] {
      #expect(!line.contains(secret), "\(secret) in \(line)")
    }
    let object = try #require(
      try JSONSerialization.jsonObject(with: record.jsonLine) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "format", "appBuild", "routeSchemaVersion", "storedRouteSchemaVersion", "outcome",
        "snapshotAgeHours", "durationMicroseconds", "crashLoop", "items", "omittedItems",
      ])
    #expect(line.hasPrefix(#"{"format":1,"appBuild":"2.0 (200)","routeSchemaVersion":2,"#))
  }

  @Test("a restore of the same release has no items; an unreadable snapshot is the root")
  func restoredAndRoot() {
    let same = outcome(Restorer(registry: Releases.v1).restore(Releases.snapshot()))
    #expect(same.outcome == .restored)
    #expect(same.items.isEmpty)

    let unreadable = outcome(Restorer(registry: Releases.v2).restore(encoded: Data("{".utf8)))
    #expect(unreadable.outcome == .root)
    #expect(unreadable.snapshotAgeHours == nil)
    #expect(unreadable.storedRouteSchemaVersion == nil)
    #expect(unreadable.items.map(\.location) == [.snapshot])
    #expect(unreadable.items.map(\.reason) == ["unreadableSnapshot"])
  }

  @Test("a snapshot from the future is 0 hours old; a long-lived one counts whole hours")
  func ages() {
    let scene = Restorer(registry: Releases.v1).restore(Releases.snapshot())
    #expect(outcome(scene, hoursLater: -5).snapshotAgeHours == 0)
    #expect(outcome(scene, hoursLater: 0.99).snapshotAgeHours == 0)
    #expect(outcome(scene, hoursLater: 24 * 400).snapshotAgeHours == 9600)
  }

  @Test("tags go through the app's mapping; stack names only when allowed; long names are cut")
  func names() {
    let scene = Restorer(registry: Releases.v2).restore(Releases.snapshot())
    let hashed = outcome(
      scene, options: RestoreOutcome.Options(tag: { "h\($0.utf8.count)" }, includesStackNames: true)
    )
    #expect(hashed.items.compactMap(\.tag) == ["h9", "h9", "h9"])
    #expect(Set(hashed.items.compactMap(\.stack)) == ["main", "account"])
    #expect(hashed.items.count == 3)  // dropped from main, dropped from account, migrated in main

    let long = outcome(
      scene, options: RestoreOutcome.Options(tag: { _ in String(repeating: "é", count: 300) }))
    for tag in long.items.compactMap(\.tag) {
      #expect(tag.utf8.count <= RestoreOutcome.maxNameBytes)
      #expect(tag.hasSuffix("…"))
    }
  }

  @Test("10,000 dropped routes: one item per kind with its count, or as many kinds as fit in 2 KiB")
  func bounded() throws {
    let restorer = Restorer(registry: RouteRegistry())
    func scene(tags: (Int) -> String, escapes: Bool = false) -> RestoredScene {
      let records = (0..<10_000).map { index in
        RouteRecord(tag: tags(index) + (escapes ? "\u{1}\"\\" : ""), json: "{}")
      }
      return restorer.restore(
        SceneSnapshot(
          metadata: SnapshotMetadata(registry: RouteRegistry(), savedAt: Releases.savedAt),
          stacks: ["main": records]))
    }
    let same = outcome(scene(tags: { _ in "Gone.Route" }))
    // The first fails, the 9,999 above it go with it (the default policy): two kinds.
    #expect(same.items.map(\.reason) == ["unknownTag", "aboveFailedRoute"])
    #expect(same.items.map(\.count) == [1, 9_999])
    #expect(same.outcome == .root)

    for escapes in [false, true] {
      let distinct = outcome(
        scene(
          tags: { "Gone.Route\($0)" + String(repeating: "x", count: $0 % 200) }, escapes: escapes),
        options: RestoreOutcome.Options(includesStackNames: true))
      #expect(distinct.jsonLine.count <= RestoreOutcome.maxBytes)
      #expect(distinct.items.reduce(0) { $0 + $1.count } + distinct.omittedItems == 10_000)
      #expect(!distinct.items.isEmpty)
      #expect(distinct.omittedItems > 0)
    }
  }

  @Test(
    "versions beyond a record's bounds, stored or registered, are written within them and read back"
  )
  func hostileVersions() throws {
    // A stored document from a far future schema: the root, with its version held at the bound.
    var future = Releases.snapshot()
    future.metadata.routeSchemaVersion = Int.max
    let root = Restorer(registry: Releases.v1).restore(encoded: future.encoded())
    #expect(root.report.outcome == .root)
    let record = RestoreOutcome(
      root, appBuild: nil, routeSchemaVersion: Int.max, restoredAt: Releases.savedAt,
      duration: .microseconds(1))
    #expect(record.storedRouteSchemaVersion == RestoreOutcome.maxCount)
    #expect(record.routeSchemaVersion == RestoreOutcome.maxCount)
    #expect(try RestoreOutcome(jsonLine: record.jsonLine) == record)
    // A tag registered far above the bound: its migrated routes say so within it.
    let far = RouteRegistry().registering(
      Releases.RouteV1.self, tag: "Out.Route", version: Int.max,
      examples: [.home, .profile(userId: 1), .faq])
    let migrated = Restorer(registry: far).restore(Releases.snapshot())
    let farRecord = RestoreOutcome(
      migrated, appBuild: nil, routeSchemaVersion: 1, restoredAt: Releases.savedAt,
      duration: .microseconds(1))
    #expect(
      farRecord.items.contains { $0.kind == .migrated && $0.toVersion == RestoreOutcome.maxCount })
    #expect(try RestoreOutcome(jsonLine: farRecord.jsonLine) == farRecord)
  }

  @Test("absurd durations and builds stay within bounds")
  func absurdInputs() {
    let scene = Restorer(registry: Releases.v1).restore(Releases.snapshot())
    let record = RestoreOutcome(
      scene, appBuild: String(repeating: "\u{0}", count: 10_000), routeSchemaVersion: 1,
      restoredAt: Date(timeIntervalSince1970: .infinity), duration: .seconds(Int64.max))
    #expect(record.jsonLine.count <= RestoreOutcome.maxBytes)
    #expect((record.appBuild?.utf8.count ?? 0) <= RestoreOutcome.maxNameBytes)
    #expect(record.durationMicroseconds > 0)
    let negative = RestoreOutcome(
      scene, appBuild: nil, routeSchemaVersion: 1, restoredAt: .distantPast,
      duration: .seconds(-5))
    #expect(negative.durationMicroseconds == 0)
    #expect(negative.snapshotAgeHours == 0)
  }
}
