import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointTesting

@Suite("Manifest drift")
struct ManifestDriftTests {
  enum Before: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
    case faq
  }

  enum After: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int, tab: String)
    case settings
  }

  func committed(_ registry: RouteRegistry) throws -> URL {
    let url = try temporaryFolder().appendingPathComponent("routes.manifest.json")
    try RouteManifest(registry: registry).encoded().write(to: url)
    return url
  }

  @Test("an unchanged registry matches its committed manifest")
  func unchanged() throws {
    let file = try committed(DemoApp.V3.registry())
    try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: false)
    #expect(assertManifestMatches(file, registry: DemoApp.V3.registry()))
  }

  @Test("changes at the same version are named in route terms, those that lose routes first")
  func sameVersion() throws {
    let before = RouteRegistry().registering(
      Before.self, tag: "Shop.Route", examples: [.home, .profile(userId: 1), .faq])
    let after = RouteRegistry().registering(
      After.self, tag: "Shop.Route", examples: [.home, .profile(userId: 1, tab: "a"), .settings])
    let file = try committed(before)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: after, release: "1.2", recording: false)
    }
    #expect(
      failure?.message == """
        the route manifest differs from \(file.path):
          loses routes: tag `Shop.Route`: case `faq` removed without a version bump: routes saved by 1.2 with it will be dropped
          loses routes: tag `Shop.Route`, case `profile` gained field `tab` with no default: routes saved by 1.2 will be dropped
          note: tag `Shop.Route`: case `settings` added
          Add a migration for what loses routes, or accept the change on purpose: WAYPOINT_RECORD_FIXTURES=1 swift test, then review the diff of the manifest.
        """)
  }

  @Test(
    "the demo's 1.0 to 3.0: a renamed tag with its alias, a deleted tag, a version bumped without a migration"
  )
  func demoHistory() throws {
    let file = try committed(DemoApp.V1.registry())
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(
        file, registry: DemoApp.V3.registry(), release: "1.0", recording: false)
    }
    #expect(
      failure?.message == """
        the route manifest differs from \(file.path):
          loses routes: tag `DemoApp.Promo` removed or renamed without alias: routes saved by 1.0 will be dropped
          note: tag `DemoApp.Route` (now `DemoApp.Destination`): shape changed with version 3 (its migrations carry routes saved by 1.0; the round-trip and frozen-release checks prove them)
          note: tag `DemoApp.Search`: version bumped to 3 without a migration from 1: routes saved by 1.0 reach the new type unchanged
          Add a migration for what loses routes, or accept the change on purpose: WAYPOINT_RECORD_FIXTURES=1 swift test, then review the diff of the manifest.
        """)
  }

  @Test("a new user's release pair without examples fails: the comparison cannot look")
  func blindWithoutExamples() throws {
    let file = try committed(NewUserReleases.release1(examples: false))
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(
        file, registry: NewUserReleases.release2(examples: false), release: "1.0",
        recording: false)
    }
    #expect(
      failure?.message == """
        the route manifest differs from \(file.path):
          cannot compare: tag `MyApp.Route`: its shape is not known in the old or the new manifest; register examples for `MyApp.Route` (one value of every case)
          Register one example of every case (`examples:` in `register`), or pass allowUnknownShapes: true to accept a comparison that cannot look.
          Add a migration for what loses routes, or accept the change on purpose: WAYPOINT_RECORD_FIXTURES=1 swift test, then review the diff of the manifest.
        """)
    // With examples on both sides, the change is compared and named.
    let known = try committed(NewUserReleases.release1(examples: true))
    let compared = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(
        known, registry: NewUserReleases.release2(examples: true), release: "1.0",
        recording: false)
    }
    #expect(
      compared?.message.contains(
        "  note: tag `MyApp.Route`: shape changed with version 2 (its migrations carry routes saved by 1.0"
      ) == true)
    #expect(compared?.message.contains("cannot compare") == false)
  }

  @Test(
    "a committed manifest equal to the current one still fails when a shape is unknown, unless allowed"
  )
  func blindEvenWhenUnchanged() throws {
    let registry = NewUserReleases.release1(examples: false)
    let file = try committed(registry)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: registry, recording: true)
    }
    #expect(
      failure?.message == """
        the route manifest \(file.path) cannot tell what a change does to saved routes:
          cannot compare: tag `MyApp.Route`: its shape is not known in the old or the new manifest; register examples for `MyApp.Route` (one value of every case)
          Register one example of every case (`examples:` in `register`), or pass allowUnknownShapes: true to accept a comparison that cannot look.
        """)
    try WaypointAssert.manifestMatches(
      file, registry: registry, allowUnknownShapes: true, recording: false)
    #expect(assertManifestMatches(file, registry: registry, allowUnknownShapes: true))
    // Registered with examples, the same file no longer matches: the shape became known.
    #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(
        file, registry: NewUserReleases.release1(examples: true), recording: false)
    }
  }

  enum Tab: String, Codable, Hashable, Sendable { case shop, orders }

  enum TabAfter: String, Codable, Hashable, Sendable { case shop, wallet }

  @Test("a raw-value enum's removed value loses routes, an added one is a note (the CLI's diff)")
  func rawValues() throws {
    let file = try committed(
      RouteRegistry().registering(Tab.self, tag: "Shop.Tab", examples: [.shop, .orders]))
    let after = RouteRegistry().registering(
      TabAfter.self, tag: "Shop.Tab", examples: [.shop, .wallet])
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: after, release: "1.0", recording: false)
    }
    let lines = failure?.message.split(separator: "\n").map(String.init) ?? []
    #expect(
      Array(lines.dropFirst().prefix(2)) == [
        "  loses routes: tag `Shop.Tab`: value `orders` removed without a version bump: routes "
          + "saved by 1.0 with it will be dropped",
        "  note: tag `Shop.Tab`: value `wallet` added",
      ])
  }

  @Test("recording on purpose rewrites the manifest, fails once, then matches")
  func recording() throws {
    let file = try committed(DemoApp.V1.registry())
    #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: true)
    }
    try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: false)
    let missing = file.deletingLastPathComponent().appendingPathComponent("new.json")
    let absent = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(missing, registry: DemoApp.V3.registry(), recording: false)
    }
    #expect(
      absent?.message
        == "\(missing.path) is missing: record the manifest with WAYPOINT_RECORD_FIXTURES=1 swift test, then commit it"
    )
    #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(missing, registry: DemoApp.V3.registry(), recording: true)
    }
    try WaypointAssert.manifestMatches(missing, registry: DemoApp.V3.registry(), recording: false)
  }

  @Test("a committed file that is not a manifest is a failure naming it")
  func garbage() throws {
    let file = try temporaryFolder().appendingPathComponent("routes.manifest.json")
    try Data("[1,2".utf8).write(to: file)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: false)
    }
    #expect(failure?.message.hasPrefix("\(file.path) is not a route manifest: ") == true)
  }

  @Test("recording replaces a committed manifest that does not read, and fails once")
  func garbageRecorded() throws {
    let file = try temporaryFolder().appendingPathComponent("routes.manifest.json")
    try Data("<<<<<<< HEAD\n{}".utf8).write(to: file)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: true)
    }
    #expect(failure?.message.hasPrefix("\(file.path) was not a route manifest (") == true)
    try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: false)
  }

  @Test("recording never replaces a manifest of a newer format: the kit is what is old")
  func newerManifestKept() throws {
    let file = try temporaryFolder().appendingPathComponent("routes.manifest.json")
    let newer = Data(#"{"manifest":99,"schemaVersion":1,"routes":[]}"#.utf8)
    try newer.write(to: file)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: DemoApp.V3.registry(), recording: true)
    }
    #expect(failure?.message.hasSuffix("Update WaypointTesting") == true)
    #expect(try Data(contentsOf: file) == newer)
  }

  @Test("a registry with a registration mistake fails before any comparison")
  func registrationMistake() throws {
    let registry = DemoApp.V3.registry().registering(After.self, tag: "", examples: [.home])
    let file = try committed(registry)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: registry, recording: false)
    }
    #expect(
      failure?.message
        == "the registry has a registration mistake: a route tag or alias cannot be empty")
  }

  struct TicketBefore: Codable, Hashable, Sendable {
    var id: Int
    var note: String
  }

  struct TicketAfter: Codable, Hashable, Sendable {
    var id: String
    var extra: Int?
  }

  @Test(
    "struct fields retyped, added as optional and lost; a version and a schema that go down; a new tag"
  )
  func structsAndVersions() throws {
    let before = RouteRegistry(schemaVersion: 2)
      .registering(
        TicketBefore.self, tag: "Shop.Ticket", examples: [TicketBefore(id: 1, note: "n")]
      )
      .registering(Before.self, tag: "Shop.Route", version: 2, examples: [.home])
    let after = RouteRegistry(schemaVersion: 1)
      .registering(TicketAfter.self, tag: "Shop.Ticket", examples: [TicketAfter(id: "1", extra: 2)])
      .registering(Before.self, tag: "Shop.Route", examples: [.home])
      .registering(After.self, tag: "Shop.Next", examples: [.home])
    let file = try committed(before)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.manifestMatches(file, registry: after, release: "2.0", recording: false)
    }
    #expect(
      failure?.message == """
        the route manifest differs from \(file.path):
          loses routes: route schema went down from 2 to 1: routes saved by 2.0 will all be dropped as newer
          loses routes: tag `Shop.Route` went down from version 2 to 1: routes saved by 2.0 will be dropped as newer
          loses routes: tag `Shop.Ticket`: field `id` changed type without a version bump: routes saved by 2.0 may no longer decode
          note: tag `Shop.Ticket` gained optional field `extra`
          note: tag `Shop.Ticket` lost field `note` (saved values of it are ignored)
          note: tag `Shop.Next` added
          Add a migration for what loses routes, or accept the change on purpose: WAYPOINT_RECORD_FIXTURES=1 swift test, then review the diff of the manifest.
        """)
  }
}
