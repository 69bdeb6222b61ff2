import Foundation
import Testing
import Waypoint
import WaypointManifest

/// Versions far apart, as a hostile manifest, a snapshot built in memory or a date used as a
/// version gives them (a stored route version below 1 is refused when the document is read): a
/// migration walks from one version that has steps to the next, so the work is bounded by the
/// migrations, never by the distance between versions. A walk of one version at a time would not
/// return from any of these.
@Suite("Route versions far apart")
struct HostileVersionTests {
  /// Restores `records` as the main stack with `registry`.
  func restore(_ records: [RouteRecord], _ registry: RouteRegistry) -> RestoredScene {
    Restorer(registry: registry).restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": records]))
  }

  @Test(
    "a route of version Int.min or 0 in a snapshot built in memory migrates as one of version 1",
    arguments: [Int.min, -5, 0])
  func versionBelowOne(version: Int) throws {
    var records = try Shop.v1Records([.order(id: 42), .item(9)])
    for index in records.indices { records[index].version = version }
    let scene = restore(records, try Shop.registry())
    #expect(scene.report.outcome == .restored)
    #expect(scene.elements()[0] as? Shop.Destination == .purchase(id: sampleUUID))
    #expect(scene.elements()[1] as? Shop.Catalog == .item(9))
  }

  @Test("a tag at version Int.max takes its migrations, then the rest at once")
  func currentVersionIntMax() throws {
    let registry = RouteRegistry(schemaVersion: 3).registering(
      Shop.Article.self, tag: "Shop.Article", version: .max,
      migrations: [
        RouteMigration(from: 1, [.renameField(case: nil, from: "name", to: "slug")]),
        RouteMigration(from: 1 << 40, [.addField(case: nil, name: "page", default: .integer(1))]),
      ])
    let stored = RouteRecord(tag: "Shop.Article", json: #"{"name":"a"}"#, version: 1)
    let scene = restore([stored], registry)
    #expect(scene.report.outcome == .restored)
    #expect(scene.elements()[0] as? Shop.Article == Shop.Article(slug: "a", page: 1))
    #expect(scene.stack()[0].record.version == .max)
    // The manifest of that registry predicts the same, in as few steps.
    let prediction = RouteManifest(registry: registry).predict(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [stored]]))
    #expect(prediction.report == scene.report)
  }

  @Test("a move to version Int.min of another tag continues from that tag's first migration")
  func moveToVersionIntMin() throws {
    let registry = RouteRegistry(schemaVersion: 2)
      .registering(
        Shop.Destination.self, tag: "Shop.Destination", version: 2,
        migrations: [
          RouteMigration(from: 1, [.moveCase("item", toTag: "Shop.Catalog", version: .min)])
        ]
      )
      .registering(Shop.Catalog.self, tag: "Shop.Catalog")
    let stored = RouteRecord(tag: "Shop.Destination", json: #"{"item":{"_0":9}}"#, version: 1)
    let scene = restore([stored], registry)
    #expect(scene.report.outcome == .restored)
    #expect(scene.elements()[0] as? Shop.Catalog == .item(9))
    let prediction = RouteManifest(registry: registry).predict(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [stored]]))
    #expect(prediction.report == scene.report)
  }

  @Test("a walk of more than 65,536 migrations drops the route, in the restore and the prediction")
  func tooManyMigrations() throws {
    /// A tag at version `count + 1` with a migration from every version, each renaming a field of
    /// no payload.
    func registry(migrations count: Int) -> RouteRegistry {
      RouteRegistry().registering(
        Shop.Article.self, tag: "Shop.Article", version: count + 1,
        migrations: (1...count).map { version in
          RouteMigration(from: version, [.renameField(case: nil, from: "x\(version)", to: "y")])
        })
    }
    let stored = RouteRecord(tag: "Shop.Article", json: #"{"slug":"a","page":1}"#, version: 1)
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [stored]])
    let within = registry(migrations: 1 << 16)
    #expect(Restorer(registry: within).restore(snapshot).report.outcome == .restored)
    // From version 0, the same 65,536 migrations: a version without any is not a step.
    var fromZero = snapshot
    fromZero.stacks["main"]?[0].version = 0
    #expect(Restorer(registry: within).restore(fromZero).report.outcome == .restored)
    let beyond = registry(migrations: (1 << 16) + 1)
    let scene = Restorer(registry: beyond).restore(snapshot)
    #expect(scene.report.outcome == .root)
    #expect(
      scene.report.dropped.map(\.reason.description) == [
        "migration of Shop.Article from version 65537 failed at plan: more than 65536 migrations "
          + "to apply"
      ])
    let prediction = RouteManifest(registry: beyond).predict(snapshot)
    #expect(prediction.report == scene.report)
  }

  @Test(
    "one migration of more than 65,536 steps drops the route, in the restore and the prediction")
  func tooManySteps() throws {
    /// A tag at version 2 whose one migration holds `count` renames of a field no payload has.
    func registry(steps count: Int) -> RouteRegistry {
      RouteRegistry().registering(
        Shop.Article.self, tag: "Shop.Article", version: 2,
        migrations: [
          RouteMigration(
            from: 1, (0..<count).map { _ in .renameField(case: nil, from: "x", to: "y") })
        ])
    }
    let stored = RouteRecord(tag: "Shop.Article", json: #"{"slug":"a","page":1}"#, version: 1)
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [stored]])
    #expect(
      Restorer(registry: registry(steps: 1 << 16)).restore(snapshot).report.outcome == .restored)
    let beyond = registry(steps: (1 << 16) + 1)
    let scene = Restorer(registry: beyond).restore(snapshot)
    #expect(
      scene.report.dropped.map(\.reason.description) == [
        "migration of Shop.Article from version 1 failed at plan: more than 65536 steps to apply"
      ])
    #expect(RouteManifest(registry: beyond).predict(snapshot).report == scene.report)
  }

  @Test("a prediction applies at most its budget of steps over all routes; the rest need the app")
  func predictionBudget() throws {
    // A migration of ten steps a route, eleven units of the budget (the migration reached and its
    // steps), a hundred routes, a budget of 255: 23 routes are judged.
    let registry = RouteRegistry().registering(
      Shop.Article.self, tag: "Shop.Article", version: 2,
      migrations: [
        RouteMigration(from: 1, (0..<10).map { _ in .renameField(case: nil, from: "x", to: "y") })
      ],
      examples: [Shop.Article(slug: "a", page: 1)])
    let stored = RouteRecord(tag: "Shop.Article", json: #"{"slug":"a","page":1}"#, version: 1)
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["main": Array(repeating: stored, count: 100)])
    let manifest = RouteManifest(registry: registry)
    let bounded = manifest.predict(
      snapshot, policy: .cutAtFirstFailure, limits: .default, migrationSteps: 255)
    let fates = bounded.entries.map(\.fate)
    #expect(fates.prefix(23).allSatisfy { if case .migrated = $0 { true } else { false } })
    #expect(
      fates[23] == .undetermined("judging the snapshot takes more than 255 migration steps"))
    #expect(bounded.hasUndetermined)
    // With the default budget every route is judged, as the restore judges it.
    let whole = manifest.predict(snapshot)
    #expect(!whole.hasUndetermined)
    #expect(whole.report == Restorer(registry: registry).restore(snapshot).report)
  }

  @Test("migrations that only rename the tag still pay the prediction's budget")
  func renameTagsPayTheBudget() throws {
    // 600 migrations of one renameTag each: 1,200 units a route, at no work on the payload.
    let registry = RouteRegistry().registering(
      Shop.Article.self, tag: "Shop.Article", version: 601,
      migrations: (1...600).map { RouteMigration(from: $0, [.renameTag(from: "Old\($0)")]) },
      examples: [Shop.Article(slug: "a", page: 1)])
    let stored = RouteRecord(tag: "Shop.Article", json: #"{"slug":"a","page":1}"#, version: 1)
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["main": Array(repeating: stored, count: 10)])
    let bounded = RouteManifest(registry: registry).predict(
      snapshot, policy: .cutAtFirstFailure, limits: .default, migrationSteps: 5_000)
    let judged = bounded.entries.prefix { if case .migrated = $0.fate { true } else { false } }
    #expect(judged.count == 4)
    #expect(
      bounded.entries[4].fate
        == .undetermined("judging the snapshot takes more than 5000 migration steps"))
  }

  @Test("a version bumped across a vast range is one note per run of versions without a migration")
  func diffOfVersionsFarApart() throws {
    let old = RouteManifest(
      registry: RouteRegistry().registering(Shop.Article.self, tag: "Shop.Article"))
    let new = RouteManifest(
      registry: RouteRegistry().registering(
        Shop.Article.self, tag: "Shop.Article", version: .max,
        migrations: [RouteMigration(from: 3, [.renameField(case: nil, from: "name", to: "slug")])]
      ))
    let notes = ManifestDiff(committed: old, current: new, release: "1.0").findings().map(\.text)
    #expect(
      notes.filter { $0.contains("without") } == [
        "tag `Shop.Article`: version bumped to \(Int.max) without migrations from 1 to 2: "
          + "routes saved by 1.0 reach the new type unchanged",
        "tag `Shop.Article`: version bumped to \(Int.max) without migrations from 4 to "
          + "\(Int.max - 1): routes saved by 1.0 reach the new type unchanged",
      ])
  }

  @Test(
    "the runs of versions without a migration",
    arguments: [
      (1..<2, [], [1..<2]),
      (1..<5, [1, 2, 3, 4], []),
      (1..<5, [2], [1..<2, 3..<5]),
      (1..<Int.max, [1, Int.max - 1], [2..<(Int.max - 1)]),
      (3..<4, [1, 9], [3..<4]),
    ] as [(Range<Int>, [Int], [Range<Int>])])
  func runs(versions: Range<Int>, starts: [Int], expected: [Range<Int>]) {
    let migrations = starts.map { RouteManifest.Migration(from: $0, []) }
    #expect(ManifestDiff.versionsWithoutMigration(versions, migrations) == expected)
  }

  @Test("a schema-5 document nested hundreds of levels deep is left as it is, not expanded")
  func deepStoredForm() {
    // A record without its tag (which the expansion would fill in) beside a deep value.
    let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    let document =
      #"{"format":1,"deep":"# + deep
      + #","stacks":{"main":[{"json":"1","tag":"Swift.Int"},{"json":"2"}]}}"#
    #expect(StoredForm.expanded(Array(document.utf8), limit: 1 << 20)?.count == nil)
    // Shallow, the same record is given its tag.
    let shallow = #"{"format":1,"stacks":{"main":[{"json":"1","tag":"Swift.Int"},{"json":"2"}]}}"#
    #expect(
      StoredForm.expanded(Array(shallow.utf8), limit: 1 << 20).map {
        String(decoding: $0, as: UTF8.self)
      }
        == #"{"format":1,"stacks":{"main":[{"json":"1","tag":"Swift.Int"},{"json":"2","tag":"Swift.Int"}]}}"#
    )
  }
}

/// Shapes from a hostile manifest: however many fields, cases or enum values, and however the
/// references walk the same members again, one match does a bounded amount of work, and what it
/// cannot judge within it is left to the app (`undetermined`), never guessed.
@Suite("Matching hostile shapes")
struct HostileShapeTests {
  let spent = "judging the payload takes more than \(ShapeMatcher.budget) steps"

  func isLeftToApp(_ match: ShapeMatch) -> Bool {
    if case .undetermined(let reason) = match { return reason.hasSuffix(spent) }
    return false
  }

  @Test("references walking the same member by two fields: 2^30 walks are not made")
  func duplicateFieldsReferencingTheirType() {
    let shape = RouteShape.object([
      RouteShape.Field("a", .optional(.reference(tag: "T"))),
      RouteShape.Field("a", .optional(.reference(tag: "T"))),
    ])
    let payload = String(repeating: #"{"a":"#, count: 30) + "{}" + String(repeating: "}", count: 30)
    let match = shape.match(
      json: payload, references: { $0 == "T" ? shape : nil },
      limits: InputLimits(maxNestingDepth: 64))
    #expect(isLeftToApp(match), "\(match)")
    // Shallow, the same shape is judged: it matches.
    #expect(
      shape.match(json: #"{"a":{"a":{}}}"#, references: { $0 == "T" ? shape : nil }) == .matches)
  }

  @Test("an array of values of an enum of a million values")
  func hugeStringEnum() {
    let values = (0..<(1 << 20)).map { "v\($0)" }
    let payload = "[" + Array(repeating: #""v1048575""#, count: 100).joined(separator: ",") + "]"
    #expect(isLeftToApp(RouteShape.array(.stringEnum(values)).match(json: payload)))
    #expect(RouteShape.array(.stringEnum(["a", "b"])).match(json: #"["b","a"]"#) == .matches)
  }

  @Test("empty objects against eighty thousand optional fields: each field is a step")
  func fieldsOfEmptyObjects() {
    let fields = (0..<80_000).map { RouteShape.Field("f\($0)", .optional(.integer(.int))) }
    let payload = "[" + Array(repeating: "{}", count: 1000).joined(separator: ",") + "]"
    #expect(isLeftToApp(RouteShape.array(.object(fields)).match(json: payload)))
  }

  @Test("an object of a hundred thousand fields against a payload of thousands of keys")
  func fieldsTimesMembers() {
    let fields = (0..<100_000).map { RouteShape.Field("f\($0)", .optional(.integer(.int))) }
    let payload =
      "{" + (0..<5000).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"
    #expect(isLeftToApp(RouteShape.object(fields).match(json: payload)))
  }
}
