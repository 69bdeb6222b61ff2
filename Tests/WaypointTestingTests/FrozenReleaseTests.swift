import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointTesting

@Suite("Frozen releases")
struct FrozenReleaseTests {
  /// The demo's 1.0 release: its saved scene and a NavigationPath file of its shop stack.
  func release1() -> FrozenRelease {
    let registry = DemoApp.V1.registry()
    var release = FrozenRelease("1.0", registry: registry)
    var scene = DemoApp.savedScene()
    scene.metadata.savedAt = SceneBuilder.fixedDate
    release.add("ipad", snapshot: scene)
    release.add(
      "account",
      snapshot: SceneBuilder(registry: registry)
        .stack("account", DemoApp.V1.Route.profile(userId: 12), DemoApp.V1.Route.faq).snapshot)
    release.add(
      "feed",
      navigationPath: Data(
        #"["DemoApp.Route","{\"product\":{\"id\":7}}","DemoApp.Route","{\"category\":{\"name\":\"Shoes\"}}"]"#
          .utf8), stack: "shop")
    return release
  }

  @Test("a recorded release writes its manifest, fixtures and expectations, and proves itself")
  func recordAndProve() throws {
    let folder = try temporaryFolder()
    let written = try release1().record(
      in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    let files = try FileManager.default.contentsOfDirectory(atPath: written.path).sorted()
    #expect(
      files == [
        "account.snapshot.json", "expectations.json", "feed.path.json", "ipad.snapshot.json",
        "manifest.json",
      ])
    let path = try Data(contentsOf: written.appendingPathComponent("feed.path.json"))
    #expect(String(decoding: path, as: UTF8.self).hasPrefix(#"["DemoApp.Route","{\"product\""#))
    _ = try RouteManifest(
      decoding: Data(contentsOf: written.appendingPathComponent("manifest.json")))
    try WaypointAssert.releasesRestore(
      in: folder, with: Restorer(registry: DemoApp.V1.registry()), recordingExpectations: false)
    #expect(assertReleasesRestore(in: folder, with: Restorer(registry: DemoApp.V1.registry())))
  }

  @Test(
    "a route change that drops a recorded route fails, naming release, scene, stack, index, migration and stored JSON"
  )
  func failureMessage() throws {
    let folder = try temporaryFolder()
    try release1().record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: folder, with: Restorer(registry: DemoApp.V3.registry()), recordingExpectations: false)
    }
    let findings = failure?.message.components(separatedBy: "\n\n") ?? []
    #expect(findings.count == 2)
    let ipad = try #require(findings.first)
    #expect(ipad.hasPrefix("release 1.0, scene ipad: expected restored, got partial (dropping "))
    #expect(
      ipad.contains(
        "  stack orders[1]: dropped, migrationFailed: migration of DemoApp.Destination from version 2 "
          + "failed at mapValues(purchase.id, 2 values): no mapping for id = 17\n"
          + #"    stored: DemoApp.Route version 1 {"order":{"id":17}}"#))
    #expect(
      ipad.contains(
        "  sheet: dropped, unknownTag: unknown tag\n    stored: DemoApp.Promo version 1"))
    let account = try #require(findings.last)
    #expect(
      account == """
        release 1.0, scene account: expected restored, got partial (dropping stack account[1] (removedCase))
          stack account[1]: dropped, removedCase: case faq was removed in version 2
            stored: DemoApp.Route version 1 {"faq":{}}
            migration: DemoApp.Route version 1 -> DemoApp.Destination version 3
          fixture: \(folder.path)/1.0/account.snapshot.json
          To accept the new outcome on purpose, re-record the expectation: WAYPOINT_RECORD_FIXTURES=1 swift test, then review the diff of 1.0/expectations.json.
        """)
  }

  @Test("re-recording on purpose rewrites the changed expectations, fails once, then passes")
  func reRecording() throws {
    let folder = try temporaryFolder()
    try release1().record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    let v3 = Restorer(registry: DemoApp.V3.registry())
    let expectations = folder.appendingPathComponent("1.0/expectations.json")
    let before = try Data(contentsOf: expectations)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(in: folder, with: v3, recordingExpectations: true)
    }
    #expect(
      failure?.message
        == "release 1.0: re-recorded the expectations of ipad (now partial), account (now partial) "
        + "because WAYPOINT_RECORD_FIXTURES=1; review the diff of expectations.json, then run the "
        + "tests again without it")
    let after = try String(decoding: Data(contentsOf: expectations), as: UTF8.self)
    #expect(try Data(contentsOf: expectations) != before)
    #expect(after.contains(#""code" : "removedCase""#))
    try WaypointAssert.releasesRestore(in: folder, with: v3, recordingExpectations: false)
    // Nothing changed: recording again passes and leaves no temporary file.
    try WaypointAssert.releasesRestore(in: folder, with: v3, recordingExpectations: true)
    let names = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("1.0").path)
    #expect(!names.contains { $0.hasPrefix(".") })
  }

  @Test("a recorded release is never overwritten unless asked, and is replaced whole when asked")
  func neverOverwrites() throws {
    let folder = try temporaryFolder()
    let v1 = Restorer(registry: DemoApp.V1.registry())
    try release1().record(in: folder, restoringWith: v1)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try release1().record(in: folder, restoringWith: v1)
    }
    #expect(
      failure?.message
        == "\(folder.path)/1.0 exists: a recorded release is never overwritten; pass replacing: true to record it again"
    )
    var smaller = FrozenRelease("1.0", registry: DemoApp.V1.registry())
    smaller.add(
      "only",
      snapshot: SceneBuilder(registry: DemoApp.V1.registry()).main(DemoApp.V1.Route.faq).snapshot)
    try smaller.record(in: folder, restoringWith: v1, replacing: true)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(names == ["1.0"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("1.0").path)
        .sorted()
        == ["expectations.json", "manifest.json", "only.snapshot.json"])
  }

  @Test(
    "names that cannot be file names are refused before anything is written",
    arguments: ["", "../up", ".hidden", "a/b", String(repeating: "x", count: 101)])
  func badNames(name: String) throws {
    let folder = try temporaryFolder()
    var release = FrozenRelease("1.0", registry: DemoApp.V1.registry())
    release.add(name, snapshot: SceneBuilder(registry: DemoApp.V1.registry()).snapshot)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try release.record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    }
    #expect(failure?.message.hasPrefix("cannot record \"\(name)\": a name ") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("a NavigationPath fixture that stops restoring names its stack, index and stored pair")
  func navigationPathFailure() throws {
    let folder = try temporaryFolder()
    try release1().record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    // A build that dropped the Route type altogether (its tabs remain).
    let registry = RouteRegistry(schemaVersion: 1).registering(
      DemoApp.V1.Tab.self, tag: "DemoApp.Tab")
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: folder, with: Restorer(registry: registry), recordingExpectations: false)
    }
    let feed = try #require(
      failure?.message.components(separatedBy: "\n\n").first { $0.contains("scene feed") })
    let expected: String = [
      "release 1.0, scene feed: expected restored, got root (dropping stack shop[0] (unknownTag), "
        + "stack shop[1] (aboveFailedRoute))",
      "  stack shop[0]: dropped, unknownTag: unknown tag",
      #"    stored: DemoApp.Route version 1 {"category":{"name":"Shoes"}}"#,
      "    migration: none: the current registry does not know DemoApp.Route",
    ].joined(separator: "\n")
    #expect(feed.hasPrefix(expected))
    #expect(feed.contains("  fixture: \(folder.path)/1.0/feed.path.json\n"))
  }

  @Test("a route dropped for another reason than recorded says so, never that it is kept")
  func droppedForAnotherReason() throws {
    let folder = try temporaryFolder()
    // Recorded under release 3: the account scene's faq route is dropped, its case removed.
    try release1().record(in: folder, restoringWith: Restorer(registry: DemoApp.V3.registry()))
    // A build without the route type: the route below it fails, and it goes with it.
    let registry = RouteRegistry(schemaVersion: 1).registering(
      DemoApp.V1.Tab.self, tag: "DemoApp.Tab")
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: folder, with: Restorer(registry: registry), recordingExpectations: false)
    }
    let account = try #require(
      failure?.message.components(separatedBy: "\n\n").first { $0.contains("scene account") })
    #expect(
      account.contains(
        "  stack account[1]: dropped for another reason than before (was removedCase)"))
    #expect(!account.contains("no longer dropped"))
    // Dropped with the route below it, it was never migrated: no migration is claimed for it.
    let above = try #require(
      account.components(separatedBy: "  stack account[1]: dropped, aboveFailedRoute").last)
    #expect(!above.components(separatedBy: "\n  stack").first!.contains("migration:"))
  }

  @Test("a fixture file over the restorer's document limit is a finding, not a read")
  func oversizedFixture() throws {
    let folder = try temporaryFolder()
    try release1().record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    let url = folder.appendingPathComponent("1.0/ipad.snapshot.json")
    let size = try Data(contentsOf: url).count
    var limits = InputLimits.default
    limits.maxDocumentBytes = size - 1
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: folder, with: Restorer(registry: DemoApp.V1.registry(), limits: limits),
        recordingExpectations: false)
    }
    #expect(
      failure?.message.components(separatedBy: "\n\n").first
        == "release 1.0, scene ipad: \(url.path): \(size) bytes, more than the \(size - 1) allowed")
  }

  /// A recorded release with its expectations file replaced by `text`.
  func releaseWithExpectations(_ text: String) throws -> URL {
    let folder = try temporaryFolder()
    try release1().record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    try Data(text.utf8).write(to: folder.appendingPathComponent("1.0/expectations.json"))
    return folder
  }

  @Test("hostile or broken release folders are findings, never traps")
  func hostileFolders() throws {
    let v1 = Restorer(registry: DemoApp.V1.registry())
    func message(_ folder: URL) -> String? {
      let failure = #expect(throws: WaypointTestFailure.self) {
        try WaypointAssert.releasesRestore(in: folder, with: v1, recordingExpectations: false)
      }
      return failure?.message
    }
    let empty = try temporaryFolder()
    #expect(
      message(empty)
        == "\(empty.path) holds no recorded release: record one with FrozenRelease.record(in:restoringWith:)"
    )
    let missing = empty.appendingPathComponent("nothing")
    #expect(
      message(missing)?.hasPrefix("\(missing.path): cannot list the recorded releases: ") == true)
    let garbage = try releaseWithExpectations("{not json")
    #expect(
      message(garbage)?.hasPrefix(
        "release 1.0: \(garbage.path)/1.0/expectations.json is not an expectations file: ") == true)
    let newer = try releaseWithExpectations(#"{"formatVersion":2,"release":"1.0","fixtures":[]}"#)
    #expect(
      message(newer)
        == "release 1.0: \(newer.path)/1.0/expectations.json has format 2; this WaypointTesting reads up to 1: update the package"
    )
    let traversal = try releaseWithExpectations(
      #"{"formatVersion":1,"release":"1.0","fixtures":[{"name":"x/../../etc/passwd","kind":"snapshot","outcome":"restored","drops":[]}]}"#
    )
    #expect(
      message(traversal)?.components(separatedBy: "\n\n").last
        == #"release 1.0: expectations.json names the fixture "x/../../etc/passwd": a name uses only ASCII letters and digits, '-', '_' and '.'"#
    )
    let unknownKind = try releaseWithExpectations(
      #"{"formatVersion":1,"release":"1.0","fixtures":[{"name":"ipad","kind":"video","outcome":"restored","drops":[]}]}"#
    )
    #expect(
      message(unknownKind)?.components(separatedBy: "\n\n").last
        == #"release 1.0, scene ipad: expectations.json gives the unknown kind "video" (snapshot or navigationPath)"#
    )
    let huge = try releaseWithExpectations(String(repeating: " ", count: (1 << 20) + 1))
    #expect(
      message(huge)
        == "release 1.0: \(huge.path)/1.0/expectations.json: 1048577 bytes, more than the 1048576 allowed"
    )
    let gone = try temporaryFolder()
    try release1().record(in: gone, restoringWith: v1)
    try FileManager.default.removeItem(at: gone.appendingPathComponent("1.0/feed.path.json"))
    #expect(message(gone) == "release 1.0, scene feed: \(gone.path)/1.0/feed.path.json is missing")
  }
}

extension FrozenReleaseTests {
  /// The findings of the release check of `folder` under `restorer`, which must fail.
  func releaseFindings(_ folder: URL, _ restorer: Restorer) -> [String] {
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(in: folder, with: restorer, recordingExpectations: false)
    }
    return failure?.message.components(separatedBy: "\n\n") ?? []
  }

  @Test("a release check that could not look at everything it claims fails, naming what")
  func checksThatCannotLook() throws {
    let v1 = Restorer(registry: DemoApp.V1.registry())
    func findings(_ folder: URL) -> [String] { releaseFindings(folder, v1) }
    // No fixture listed: nothing checked, and every file on disk is unlisted.
    let none = try releaseWithExpectations(#"{"formatVersion":1,"release":"1.0","fixtures":[]}"#)
    #expect(
      findings(none) == [
        "release 1.0: expectations.json lists no fixture, so nothing is checked: record the release with at least one scene"
      ]
        + ["account.snapshot.json", "feed.path.json", "ipad.snapshot.json"].map {
          "release 1.0: \($0) is not listed in expectations.json, so it is never restored: record the release again with it, or remove the file"
        })
    // A fixture file copied in by hand.
    let copied = try temporaryFolder()
    try release1().record(in: copied, restoringWith: v1)
    try FileManager.default.copyItem(
      at: copied.appendingPathComponent("1.0/ipad.snapshot.json"),
      to: copied.appendingPathComponent("1.0/phone.snapshot.json"))
    #expect(
      findings(copied) == [
        "release 1.0: phone.snapshot.json is not listed in expectations.json, so it is never restored: record the release again with it, or remove the file"
      ])
    // The outcomes of a release the check refuses are refused too.
    let outcomes = #expect(throws: WaypointTestFailure.self) {
      _ = try WaypointAssert.releaseOutcomes(in: copied, with: v1)
    }
    #expect(outcomes?.message == findings(copied).first)
    // Another release's expectations, a fixture listed twice, a format below 1.
    let fixture = #"{"name":"ipad","kind":"snapshot","outcome":"restored","drops":[]}"#
    let other = try releaseWithExpectations(
      #"{"formatVersion":1,"release":"2.0","fixtures":["# + fixture + "," + fixture + "]}")
    let otherFindings = findings(other)
    #expect(
      otherFindings.prefix(2) == [
        #"release 1.0: expectations.json was recorded for release "2.0"; a release folder is named after its release"#,
        #"release 1.0: expectations.json lists the fixture "ipad" more than once (names are compared ignoring case)"#,
      ])
    let below = try releaseWithExpectations(
      #"{"formatVersion":-5,"release":"1.0","fixtures":["# + fixture + "]}")
    #expect(
      findings(below) == [
        "release 1.0: \(below.path)/1.0/expectations.json is not an expectations file: format -5 is below 1"
      ])
    // A folder beside the releases that is not one.
    let stray = try temporaryFolder()
    try release1().record(in: stray, restoringWith: v1)
    try FileManager.default.createDirectory(
      at: stray.appendingPathComponent("Snapshots"), withIntermediateDirectories: false)
    #expect(
      findings(stray) == [
        "release Snapshots: \(stray.path)/Snapshots has no expectations.json: it is not a recorded release (record it with FrozenRelease.record(in:restoringWith:), or move it out of the releases' folder)"
      ])
  }

  @Test(
    "a fixture read follows a link but is bounded by the file it reaches, and refuses what is not a file"
  )
  func fixtureFilesThatAreNotPlain() throws {
    let v1 = Restorer(registry: DemoApp.V1.registry())
    func findings(_ folder: URL) -> [String] { releaseFindings(folder, v1) }
    let folder = try temporaryFolder()
    try release1().record(in: folder, restoringWith: v1)
    let release = folder.appendingPathComponent("1.0")
    let manager = FileManager.default
    // A link to a file over the limit: the limit is the target's.
    let big = folder.appendingPathComponent("big.json")
    try Data(count: v1.limits.maxDocumentBytes + 1).write(to: big)
    let ipad = release.appendingPathComponent("ipad.snapshot.json")
    try manager.removeItem(at: ipad)
    try manager.createSymbolicLink(at: ipad, withDestinationURL: big)
    // A folder, and a FIFO, where fixture files should be.
    let account = release.appendingPathComponent("account.snapshot.json")
    try manager.removeItem(at: account)
    try manager.createDirectory(at: account, withIntermediateDirectories: false)
    let feed = release.appendingPathComponent("feed.path.json")
    try manager.removeItem(at: feed)
    #expect(mkfifo(feed.path, 0o600) == 0)
    #expect(
      findings(folder) == [
        "release 1.0, scene ipad: \(ipad.path): \(v1.limits.maxDocumentBytes + 1) bytes, more than the \(v1.limits.maxDocumentBytes) allowed",
        "release 1.0, scene account: \(account.path): cannot read: it is a folder",
        "release 1.0, scene feed: \(feed.path): cannot read: it is not a regular file",
      ])
  }

  @Test("recording refuses a release with no fixture, or with a route that was not recorded")
  func recordingRefusesMistakes() throws {
    let registry = DemoApp.V1.registry()
    let v1 = Restorer(registry: registry)
    let folder = try temporaryFolder()
    let empty = #expect(throws: WaypointTestFailure.self) {
      try FrozenRelease("1.0", registry: registry).record(in: folder, restoringWith: v1)
    }
    #expect(
      empty?.message
        == #"cannot record release "1.0": it has no fixture, so its check would prove nothing"#)
    struct Unregistered: Codable, Hashable, Sendable { var x = 1 }
    var release = FrozenRelease("1.0", registry: registry)
    release.add(
      "phone",
      snapshot: SceneBuilder(registry: registry).main(DemoApp.V1.Route.faq, Unregistered()).snapshot
    )
    let mistake = #expect(throws: WaypointTestFailure.self) {
      try release.record(in: folder, restoringWith: v1)
    }
    #expect(
      mistake?.message.hasPrefix(
        #"cannot record release "1.0": scene phone holds a route that was not recorded ("#) == true)
    #expect(mistake?.message.contains("Unregistered") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    // Two names that differ only in case are one file on macOS.
    var cased = FrozenRelease("1.0", registry: registry)
    let sound = SceneBuilder(registry: registry).main(DemoApp.V1.Route.faq).snapshot
    cased.add("Phone", snapshot: sound)
    cased.add("phone", snapshot: sound)
    let collision = #expect(throws: WaypointTestFailure.self) {
      try cased.record(in: folder, restoringWith: v1)
    }
    #expect(
      collision?.message
        == #"cannot record release "1.0": two fixtures are named "phone" but for case, which is one file on macOS"#
    )
    // Replaced by a sound snapshot of the same name, it records.
    release.add(
      "phone", snapshot: SceneBuilder(registry: registry).main(DemoApp.V1.Route.faq).snapshot)
    try release.record(in: folder, restoringWith: v1)
  }
}

@Suite("Frozen releases from a store")
struct FrozenReleaseStoreTests {
  @Test("the latest snapshot of each scene in a store is frozen byte for byte under its scene id")
  func fromStore() throws {
    var device = try RelaunchSimulator()
    defer { device.removeFiles() }
    var old = DemoApp.savedScene()
    old.stacks["shop"] = []
    try device.save(old, scene: "ipad")
    try device.save(DemoApp.savedScene(), scene: "ipad")
    try device.save(
      SceneBuilder(registry: DemoApp.V1.registry()).main(DemoApp.V1.Route.faq).snapshot,
      scene: "phone")
    var release = FrozenRelease("1.0", registry: DemoApp.V1.registry())
    let added = try device.launch { store throws(WaypointTestFailure) in
      try release.addLatest(from: store)
    }
    #expect(added.sorted() == ["ipad", "phone"])
    let ipad = try #require(release.fixtures.first { $0.name == "ipad" })
    #expect(try SceneSnapshot(decoding: ipad.fixture.data).stacks["shop"]?.count == 3)
    let folder = try temporaryFolder()
    try release.record(in: folder, restoringWith: Restorer(registry: DemoApp.V1.registry()))
    try WaypointAssert.releasesRestore(
      in: folder, with: Restorer(registry: DemoApp.V1.registry()), recordingExpectations: false)

    let missing = #expect(throws: WaypointTestFailure.self) {
      try device.launch { store throws(WaypointTestFailure) in
        try release.addLatest(from: store, scenes: ["tv"])
      }
    }
    #expect(missing?.message == "\(device.storePath): scene tv has no snapshot")
    try device.save(DemoApp.savedScene(), scene: "a/b")
    let badName = #expect(throws: WaypointTestFailure.self) {
      try device.launch { store throws(WaypointTestFailure) in
        try release.addLatest(from: store, scenes: ["a/b"])
      }
    }
    #expect(
      badName?.message
        == "scene a/b cannot name a fixture file (a name uses only ASCII letters and digits, '-', '_' and '.'): "
        + "add it with add(_:snapshot:) under a name of your own")

    // Adding the same scenes again replaces nothing unless told to.
    let before = release.fixtures.map { "\($0.name) \($0.fixture.data.count)" }
    let taken = #expect(throws: WaypointTestFailure.self) {
      try device.launch { store throws(WaypointTestFailure) in
        try release.addLatest(from: store, scenes: ["phone", "ipad"])
      }
    }
    #expect(
      taken?.message
        == #"the release already holds fixtures named "phone", "ipad": nothing was added; "#
        + "pass replacing: true to replace them")
    #expect(release.fixtures.map { "\($0.name) \($0.fixture.data.count)" } == before)
    let phone = release.fixtures.first { $0.name == "phone" }?.fixture.data
    try device.save(
      SceneBuilder(registry: DemoApp.V1.registry()).main(DemoApp.V1.Route.order(id: 77)).snapshot,
      scene: "phone")
    let replaced = try device.launch { store throws(WaypointTestFailure) in
      try release.addLatest(from: store, scenes: ["phone"], replacing: true)
    }
    #expect(replaced == ["phone"])
    #expect(release.fixtures.count == before.count)
    #expect(release.fixtures.first { $0.name == "phone" }?.fixture.data != phone)
  }
}
