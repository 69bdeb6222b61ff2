import Foundation
import Testing
import Waypoint
import WaypointManifest

/// The Shop routes of `MigrationTests`, registered with examples and without the custom step, so
/// that a manifest describes everything and offline validation can judge every route.
func describedShopRegistry() throws -> RouteRegistry {
  try Shop.registry(custom: nil, examples: true).registering(Shop.Article.self, tag: "Shop.Article")
}

@Suite("Route manifest")
struct ManifestTests {
  @Test("a manifest writes stable JSON and reads back to the same document")
  func roundTrip() throws {
    let manifest = RouteManifest(registry: try describedShopRegistry())
    let data = manifest.encoded()
    let read = try RouteManifest(decoding: data)
    #expect(read.encoded() == data)
    #expect(RouteManifest(registry: try describedShopRegistry()).encoded() == data)
    #expect(read.schemaVersion == 3)
    #expect(read.routes.map(\.tag) == read.routes.map(\.tag).sorted())
  }

  @Test("a manifest describes tags, aliases, versions, shapes and migrations")
  func contents() throws {
    let manifest = RouteManifest(registry: try describedShopRegistry())
    let destination = try #require(manifest.route(named: "Shop.Route"))
    #expect(destination.tag == "Shop.Destination")
    #expect(destination.version == 3)
    #expect(destination.aliases == ["Shop.Route"])
    #expect(destination.migrations.map(\.from) == [1, 2])
    #expect(destination.migrations[0].steps.map(\.description).contains("removeCase(faq)"))
    guard case .enumeration(let cases) = destination.shape else {
      Issue.record("expected an enumeration, got \(destination.shape)")
      return
    }
    #expect(Set(cases.map(\.name)) == ["home", "purchase", "profile", "settings"])
    guard case .object(let fields) = manifest.route(named: "Shop.Article")?.shape else {
      Issue.record("expected an object")
      return
    }
    #expect(fields.map(\.name) == ["slug", "page"])
    #expect(manifest.route(named: "Swift.Int")?.shape == .integer(.int))
  }

  @Test(
    "offline validation migrates, keeps and drops exactly as a restore with the real types",
    arguments: [11, 12, 13] as [UInt64])
  func agreesWithRestore(seed: UInt64) throws {
    let registry = try describedShopRegistry()
    let manifest = try RouteManifest(decoding: RouteManifest(registry: registry).encoded())
    let v1 = try Shop.v1Records([
      .home, .order(id: 42), .order(id: 1), .profile(userId: 5), .faq, .item(9),
    ])
    let current = try registry.records(for: [
      Shop.Destination.home, Shop.Destination.purchase(id: sampleUUID),
      Shop.Destination.profile(accountId: 2, tab: "x"),
      Shop.Catalog.category(name: "c"), Shop.Article(slug: "s", page: 3), 7, "text", true,
      sampleUUID,
    ])
    let pool = v1 + current + [RouteRecord(tag: "Gone.Type", json: "{}")]
    var generator = SplitMix64(state: seed)
    var compared = 0
    for iteration in 0..<400 {
      var records: [RouteRecord] = []
      for _ in 0..<Int.random(in: 1...5, using: &generator) {
        var record = pool.randomElement(using: &generator) ?? pool[0]
        if Int.random(in: 0..<3, using: &generator) == 0 {
          record.json = String(
            decoding: mutate(Data(record.json.utf8), using: &generator), as: UTF8.self)
        }
        if Int.random(in: 0..<8, using: &generator) == 0 {
          record.version = Int.random(in: 1...3, using: &generator)
        }
        records.append(record)
      }
      let snapshot = SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 3), stacks: ["main": records],
        sheet: Bool.random(using: &generator) ? pool.randomElement(using: &generator) : nil)
      let policy = RestorePolicy.allCases.randomElement(using: &generator) ?? .cutAtFirstFailure
      let offline = manifest.predict(snapshot, policy: policy)
      guard !offline.hasUndetermined else { continue }
      let restored = Restorer(registry: registry, policy: policy).restore(snapshot)
      compared += 1
      let place = "seed \(seed) iteration \(iteration) policy \(policy): \(records)"
      #expect(offline.report.outcome == restored.report.outcome, "\(place)")
      #expect(
        offline.report.dropped.map(\.location) == restored.report.dropped.map(\.location),
        "\(place)")
      #expect(
        sameKinds(offline.report.dropped, restored.report.dropped),
        "\(place)\noffline: \(offline.report)\nrestore: \(restored.report)")
      let migrated = offline.entries.filter { if case .migrated = $0.fate { true } else { false } }
        .map(\.location)
      let droppedLocations = Set(restored.report.dropped.map(\.location))
      let keptIndices = records.indices.filter {
        !droppedLocations.contains(.stack("main", index: $0))
      }
      let restoredMigrated =
        zip(keptIndices, restored.stack()).filter(\.1.wasMigrated).map {
          RouteLocation.stack("main", index: $0.0)
        }
        + (restored.sheet?.wasMigrated == true ? [RouteLocation.sheet] : [])
      #expect(migrated == restoredMigrated, "\(place)")
    }
    #expect(compared > 300)
  }

  @Test("a route that reaches a custom step needs the app; routes at the current version do not")
  func customStepNeedsApp() throws {
    let manifest = RouteManifest(registry: try Shop.registry())
    let old = try Shop.v1Records([.profile(userId: 1)])
    let verdict = manifest.predict(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 3), stacks: ["main": old]))
    #expect(verdict.hasUndetermined)
    guard case .undetermined(let why) = verdict.entries.first?.fate else {
      Issue.record("\(verdict.entries)")
      return
    }
    #expect(why.contains("custom(clamp profile tab)"))
    let removed = manifest.predict(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 3),
        stacks: ["main": try Shop.v1Records([.faq])]))
    #expect(removed.entries.first?.fate == .dropped(.removedCase("faq", version: 2)))
  }

  @Test("a hand-written manifest's renameTag steps resolve the old names, as in a registry")
  func renameTagInManifest() throws {
    let text =
      #"{"manifest":1,"schemaVersion":1,"routes":[{"tag":"New","version":2,"aliases":[],"shape":{"kind":"string"},"migrations":[{"from":1,"steps":[{"step":"renameTag","from":"Old"}]}]}]}"#
    let manifest = try RouteManifest(decoding: Data(text.utf8))
    #expect(manifest.route(named: "Old")?.tag == "New")
    let verdict = manifest.predict(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: ["m": [RouteRecord(tag: "Old", json: #""x""#)]]))
    #expect(verdict.report.outcome == .restored)
  }

  @Test("a type registered without examples of its cases is opaque: its routes need the app")
  func opaqueShape() throws {
    let registry = RouteRegistry().registering(Shop.Catalog.self, tag: "Shop.Catalog")
    let manifest = RouteManifest(registry: registry)
    let verdict = manifest.predict(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: ["main": registry.records(for: [Shop.Catalog.item(1)])]))
    #expect(verdict.hasUndetermined)
    #expect(verdict.report.dropped.isEmpty)
  }

  @Test("unreadable and newer snapshots are judged as a restore judges them")
  func unreadableSnapshots() throws {
    let manifest = RouteManifest(registry: try describedShopRegistry())
    #expect(manifest.predict(encoded: Data("{".utf8)).report.outcome == .root)
    let newer = manifest.predict(SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 4)))
    #expect(newer.report.dropped.map(\.reason) == [.newerRouteSchema(found: 4, supported: 3)])
  }

  @Test("a manifest built with a step holding a number JSON cannot write is invalid")
  func nonFiniteStep() throws {
    // An entry of a registry's manifest, its migrations edited as a tool might.
    let registry = RouteRegistry().registering(Shop.Article.self, tag: "A", version: 2)
    let entry = try #require(RouteManifest(registry: registry).route(named: "A"))
    func manifest(_ step: RouteMigrationStep) throws(ManifestError) -> RouteManifest {
      var route = entry
      route.migrations = [RouteManifest.Migration(from: 1, [.step(step)])]
      return try RouteManifest(schemaVersion: 1, routes: [route])
    }
    let error = #expect(throws: ManifestError.self) {
      try manifest(.addField(case: nil, name: "f", default: .double(.infinity)))
    }
    #expect(error?.code == .invalid)
    #expect(
      error?.description
        == "invalid manifest: A: the migration from version 1 holds the number inf, which JSON cannot write"
    )
    // A finite one is taken, and the manifest encodes and reads back.
    let finite = try manifest(.addField(case: nil, name: "f", default: .double(1.5)))
    #expect(try RouteManifest(decoding: finite.encoded()).route(named: "A")?.migrations.count == 1)
  }

  static let badManifests: [(String, String)] = [
    ("not JSON", "{"),
    ("no format", #"{"schemaVersion":1,"routes":[]}"#),
    ("newer format", #"{"manifest":2,"schemaVersion":1,"routes":"anything"}"#),
    (
      "duplicate name",
      #"{"manifest":1,"schemaVersion":1,"routes":[{"tag":"A","version":1,"aliases":["B"],"shape":{"kind":"string"},"migrations":[]},{"tag":"B","version":1,"aliases":[],"shape":{"kind":"string"},"migrations":[]}]}"#
    ),
    (
      "bad migration",
      #"{"manifest":1,"schemaVersion":1,"routes":[{"tag":"A","version":1,"aliases":[],"shape":{"kind":"string"},"migrations":[{"from":1,"steps":[]}]}]}"#
    ),
    (
      "unknown step",
      #"{"manifest":1,"schemaVersion":1,"routes":[{"tag":"A","version":2,"aliases":[],"shape":{"kind":"string"},"migrations":[{"from":1,"steps":[{"step":"teleport"}]}]}]}"#
    ),
    ("deep", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)),
  ]

  @Test("bad manifests throw a typed error", arguments: badManifests)
  func badManifest(name: String, text: String) {
    #expect {
      _ = try RouteManifest(decoding: Data(text.utf8))
    } throws: { error in
      guard let error = error as? ManifestError else { return false }
      switch name {
      case "newer format":
        return error.code == .newerFormat
          && error.description == "manifest format 2 is newer than this build reads (up to 1)"
      case "deep":
        return error.code == .tooLarge
          && (error.underlying as? SnapshotFormatError)?.code == .nestingTooDeep
      case "duplicate name", "bad migration": return error.code == .invalid
      case "not JSON", "no format", "unknown step": return error.code == .malformed
      default: return false
      }
    }
  }
}
