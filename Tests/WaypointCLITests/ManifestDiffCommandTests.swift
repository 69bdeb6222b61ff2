import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest

@testable import WaypointCLI

/// `waypoint manifest diff OLD NEW`: each kind of difference between two real manifests (of
/// registries of real Swift types), its exit status, and hostile files.
@Suite("waypoint manifest diff")
struct ManifestDiffCommandTests {
  enum Before: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
    case faq
  }

  enum CaseRemoved: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
  }

  enum FieldAdded: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int, tab: String)
    case faq
  }

  enum OptionalAdded: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int, tab: String?)
    case faq
  }

  enum Retyped: Codable, Hashable, Sendable {
    case home
    case profile(userId: String)
    case faq
  }

  enum CaseAdded: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
    case faq
    case settings
  }

  struct Cart: Codable, Hashable, Sendable {
    var items: Int
  }

  enum Tab: String, Codable, Hashable, Sendable { case shop, orders }

  enum TabAdded: String, Codable, Hashable, Sendable { case shop, orders, wallet }

  enum TabRemoved: String, Codable, Hashable, Sendable { case shop }

  static let tag = "Shop.Route"

  static func before(schema: Int = 1, version: Int = 1) -> RouteRegistry {
    RouteRegistry(schemaVersion: schema).registering(
      Before.self, tag: tag, version: version, examples: [.home, .profile(userId: 1), .faq]
    ).registering(Cart.self, tag: "Shop.Cart")
      .registering(Tab.self, tag: "Shop.Tab", examples: [.shop, .orders])
  }

  /// One kind of difference: the new registry, the line the diff prints for it, the exit status.
  struct Change: Sendable, CustomTestStringConvertible {
    var name: String
    var old: RouteRegistry = ManifestDiffCommandTests.before()
    var new: RouteRegistry
    var line: String
    var status: Int32
    var testDescription: String { name }
  }

  static let cart = RouteRegistry().registering(Cart.self, tag: "Shop.Cart")
    .registering(Tab.self, tag: "Shop.Tab", examples: [.shop, .orders])

  static let changes: [Change] = [
    Change(
      name: "a removed case",
      new: cart.registering(CaseRemoved.self, tag: tag, examples: [.home, .profile(userId: 1)]),
      line: "  loses routes: tag `Shop.Route`: case `faq` removed without a version bump: routes "
        + "saved by 1.0 with it will be dropped", status: 1),
    Change(
      name: "a field added with no default",
      new: cart.registering(
        FieldAdded.self, tag: tag, examples: [.home, .profile(userId: 1, tab: "a"), .faq]),
      line: "  loses routes: tag `Shop.Route`, case `profile` gained field `tab` with no default: "
        + "routes saved by 1.0 will be dropped", status: 1),
    Change(
      name: "an optional field added",
      new: cart.registering(
        OptionalAdded.self, tag: tag, examples: [.home, .profile(userId: 1, tab: "a"), .faq]),
      line: "  note: tag `Shop.Route`, case `profile` gained optional field `tab`", status: 0),
    Change(
      name: "a retyped field",
      new: cart.registering(
        Retyped.self, tag: tag, examples: [.home, .profile(userId: "1"), .faq]),
      line: "  loses routes: tag `Shop.Route`, case `profile`: field `userId` changed type without "
        + "a version bump: routes saved by 1.0 may no longer decode", status: 1),
    Change(
      name: "an added case",
      new: cart.registering(
        CaseAdded.self, tag: tag, examples: [.home, .profile(userId: 1), .faq, .settings]),
      line: "  note: tag `Shop.Route`: case `settings` added", status: 0),
    Change(
      name: "a value added to a raw-value enum",
      new: RouteRegistry().registering(Cart.self, tag: "Shop.Cart")
        .registering(TabAdded.self, tag: "Shop.Tab", examples: [.shop, .orders, .wallet])
        .registering(Before.self, tag: tag, examples: [.home, .profile(userId: 1), .faq]),
      line: "  note: tag `Shop.Tab`: value `wallet` added", status: 0),
    Change(
      name: "a value removed from a raw-value enum",
      new: RouteRegistry().registering(Cart.self, tag: "Shop.Cart")
        .registering(TabRemoved.self, tag: "Shop.Tab", examples: [.shop])
        .registering(Before.self, tag: tag, examples: [.home, .profile(userId: 1), .faq]),
      line: "  loses routes: tag `Shop.Tab`: value `orders` removed without a version bump: routes "
        + "saved by 1.0 with it will be dropped", status: 1),
    Change(
      name: "a removed tag",
      new: RouteRegistry().registering(
        Before.self, tag: tag, examples: [.home, .profile(userId: 1), .faq]),
      line: "  loses routes: tag `Shop.Cart` removed or renamed without alias: routes saved by 1.0 "
        + "will be dropped", status: 1),
    Change(
      name: "an added tag",
      new: before().registering(CaseAdded.self, tag: "Shop.Settings", examples: [.home]),
      line: "  note: tag `Shop.Settings` added", status: 0),
    Change(
      name: "a version going down",
      old: before(version: 2),
      new: before(),
      line: "  loses routes: tag `Shop.Route` went down from version 2 to 1: routes saved by 1.0 "
        + "will be dropped as newer", status: 1),
    Change(
      name: "a route schema going down",
      old: before(schema: 3),
      new: before(),
      line: "  loses routes: route schema went down from 3 to 1: routes saved by 1.0 will all be "
        + "dropped as newer", status: 1),
    Change(
      name: "a version bumped without a migration",
      new: before(version: 2),
      line:
        "  note: tag `Shop.Route`: version bumped to 2 without a migration from 1: routes saved "
        + "by 1.0 reach the new type unchanged", status: 0),
  ]

  let directory = TemporaryDirectory()

  func write(_ registry: RouteRegistry, _ name: String) throws -> String {
    let path = directory.path(name)
    try RouteManifest(registry: registry).encoded().write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "each kind of difference is named in route terms, exit 1 only when routes are lost",
    arguments: changes)
  func difference(change: Change) async throws {
    let old = try write(change.old, "old.json")
    let new = try write(change.new, "new.json")
    let result = await run(["manifest", "diff", old, new, "--release", "1.0"])
    #expect(result.status == change.status, "\(result.out)\n\(result.err)")
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.first == "Comparing \(old) with \(new):")
    #expect(lines.contains(change.line), "\(result.out)")
    let losses = lines.filter { $0.hasPrefix("  loses routes: ") }.count
    #expect(
      lines.last
        == "\(lines.count - 2) difference\(lines.count == 3 ? "" : "s"), \(losses) losing routes "
        + "saved by 1.0.")
    #expect(result.err.isEmpty)
  }

  @Test(
    "a new user's release pair registered without examples cannot be compared: exit 1 naming the route"
  )
  func blindWithoutExamples() async throws {
    let old = try write(NewUserReleases.release1(examples: false), "r1.manifest.json")
    let new = try write(NewUserReleases.release2(examples: false), "r2.manifest.json")
    let result = await run(["manifest", "diff", old, new, "--release", "1.0"])
    #expect(result.status == 1, "\(result.out)\n\(result.err)")
    #expect(
      result.out == """
        Comparing \(old) with \(new):
          cannot compare: tag `MyApp.Route`: its shape is not known in the old or the new manifest; register examples for `MyApp.Route` (one value of every case)
        1 difference, 0 losing routes saved by 1.0, 1 tag not compared.
        """)
    // Accepted knowingly: still listed, no longer failing.
    let allowed = await run(["manifest", "diff", old, new, "--allow-unknown-shapes"])
    #expect(allowed.status == 0, "\(allowed.out)\n\(allowed.err)")
    #expect(allowed.out.hasSuffix("1 tag not compared (allowed by --allow-unknown-shapes)."))
    let json = await run(["manifest", "diff", old, new, "--json"])
    #expect(json.status == 1)
    let document = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    #expect(document?["losesRoutes"] as? Bool == false)
    #expect(document?["cannotCompare"] as? Bool == true)
  }

  @Test("one side without examples is enough to make the comparison blind")
  func blindOnOneSide() async throws {
    let old = try write(NewUserReleases.release1(examples: false), "r1.manifest.json")
    let new = try write(NewUserReleases.release2(examples: true), "r2.manifest.json")
    let result = await run(["manifest", "diff", old, new])
    #expect(result.status == 1)
    #expect(result.out.contains("its shape is not known in the old manifest; register examples"))
    // Known before, unknown now (the examples were dropped); and a tag added without examples
    // (nothing saved needs it yet, but the next comparison would be blind).
    let known = try write(NewUserReleases.release1(examples: true), "known.manifest.json")
    let dropped = await run(["manifest", "diff", known, old])
    #expect(dropped.status == 1)
    #expect(dropped.out.contains("its shape is not known in the new manifest; register examples"))
    let added = try write(
      NewUserReleases.release2(examples: true).registering(Before.self, tag: "Shop.Help"),
      "added.manifest.json")
    let addition = await run(["manifest", "diff", new, added])
    #expect(addition.status == 1)
    #expect(
      addition.out.contains(
        "  cannot compare: tag `Shop.Help`: its shape is not known in the new manifest"))
  }

  @Test("the same pair registered with examples is compared: its migrations carry the routes")
  func comparedWithExamples() async throws {
    let old = try write(NewUserReleases.release1(examples: true), "r1.manifest.json")
    let new = try write(NewUserReleases.release2(examples: true), "r2.manifest.json")
    let result = await run(["manifest", "diff", old, new, "--release", "1.0"])
    #expect(result.status == 0, "\(result.out)\n\(result.err)")
    #expect(
      result.out == """
        Comparing \(old) with \(new):
          note: tag `MyApp.Route`: shape changed with version 2 (its migrations carry routes saved by 1.0; the round-trip and frozen-release checks prove them)
        1 difference, 0 losing routes saved by 1.0.
        """)
  }

  @Test("a type renamed with its old tag as an alias loses nothing and adds nothing")
  func aliasedRename() async throws {
    let old = try write(Self.before(), "old.json")
    let renamed = Self.cart.registering(
      Before.self, tag: "Shop.Destination", aliases: [Self.tag],
      examples: [.home, .profile(userId: 1), .faq])
    let new = try write(renamed, "new.json")
    let result = await run(["manifest", "diff", old, new])
    #expect(result.status == 0)
    #expect(result.out == "Comparing \(old) with \(new):\nNo difference in routes.")
  }

  @Test("losses come before notes, and the default release name is the old release")
  func ordering() async throws {
    let old = try write(Self.before(), "old.json")
    let new = try write(
      RouteRegistry().registering(Tab.self, tag: "Shop.Tab", examples: [.shop, .orders])
        .registering(
          CaseAdded.self, tag: Self.tag, examples: [.home, .profile(userId: 1), .faq, .settings]),
      "new.json")
    let result = await run(["manifest", "diff", old, new])
    #expect(result.status == 1)
    #expect(
      result.out == """
        Comparing \(old) with \(new):
          loses routes: tag `Shop.Cart` removed or renamed without alias: routes saved by the old release will be dropped
          note: tag `Shop.Route`: case `settings` added
        2 differences, 1 losing routes saved by the old release.
        """)
  }

  @Test("--json prints the differences, losses first, through the CLI's JSON writer")
  func json() async throws {
    let old = try write(Self.before(), "old.json")
    let new = try write(
      Self.cart.registering(
        CaseRemoved.self, tag: Self.tag, examples: [.home, .profile(userId: 1)]
      )
      .registering(CaseAdded.self, tag: "Shop.Settings", examples: [.home]),
      "new.json")
    let result = await run(["--json", "manifest", "diff", old, new, "--release", "1.0"])
    #expect(result.status == 1)
    let document = try result.json()
    #expect(document["old"] as? String == old)
    #expect(document["new"] as? String == new)
    #expect(document["release"] as? String == "1.0")
    #expect(document["losesRoutes"] as? Bool == true)
    let differences = try #require(document["differences"] as? [[String: Any]])
    #expect(differences.map { $0["losesRoutes"] as? Bool } == [true, false])
    #expect(
      differences.last?["text"] as? String == "tag `Shop.Settings` added")
  }

  @Test("the same manifest twice has no difference and exits 0, also read from stdin")
  func same() async throws {
    let old = try write(Self.before(), "old.json")
    #expect(await run(["manifest", "diff", old, old]).status == 0)
    let data = try Data(contentsOf: URL(fileURLWithPath: old))
    let piped = await run(["manifest", "diff", "-", old], input: data)
    #expect(piped.status == 0)
    #expect(piped.out.hasPrefix("Comparing stdin with \(old):"))
    #expect(await run(["manifest", "diff", "-", "-"], input: data).status == 64)
  }

  /// A hostile file: its bytes (nil: missing), the status, and a part of the message.
  struct Hostile: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: Data?
    var status: Int32
    var message: String
    var testDescription: String { name }
  }

  static let hostile: [Hostile] = [
    Hostile(name: "missing", bytes: nil, status: 66, message: "no such file"),
    Hostile(name: "empty", bytes: Data(), status: 65, message: "malformed manifest: not JSON"),
    Hostile(
      name: "not JSON", bytes: Data("not json {".utf8), status: 65,
      message: "malformed manifest: not JSON"),
    Hostile(
      name: "JSON that is not a manifest", bytes: Data(#"{"routes": 3}"#.utf8), status: 65,
      message: "missing field manifest"),
    Hostile(
      name: "a newer manifest format",
      bytes: Data(#"{"manifest": 99, "schemaVersion": 1, "routes": []}"#.utf8), status: 65,
      message: "99"),
    Hostile(
      name: "huge", bytes: Data(repeating: UInt8(ascii: " "), count: (4 << 20) + 1), status: 65,
      message: "over the limit"),
  ]

  @Test("a hostile OLD or NEW file is refused with its status, naming the file", arguments: hostile)
  func hostileFile(file: Hostile) async throws {
    let good = try write(Self.before(), "good.json")
    let bad = directory.path("bad.json")
    if let bytes = file.bytes { try bytes.write(to: URL(fileURLWithPath: bad)) }
    for arguments in [[bad, good], [good, bad]] {
      let result = await run(["manifest", "diff"] + arguments)
      #expect(result.status == file.status, "\(result.err)")
      #expect(result.out.isEmpty)
      #expect(result.err.contains(bad))
      #expect(result.err.contains(file.message))
    }
  }

  /// A manifest of one struct tag with `count` required string fields, plus `extra`.
  static func wide(_ count: Int, extra: String?) throws -> Data {
    let names = (0..<count).map { "f\($0)" } + (extra.map { [$0] } ?? [])
    let fields: [[String: Any]] = names.map {
      ["name": $0, "required": true, "shape": ["kind": "string"]]
    }
    let document: [String: Any] = [
      "manifest": 1, "schemaVersion": 1,
      "routes": [
        [
          "tag": "Shop.Wide", "version": 1, "aliases": [String](), "migrations": [[String: Any]](),
          "shape": ["kind": "object", "fields": fields],
        ]
      ],
    ]
    return try JSONSerialization.data(withJSONObject: document)
  }

  @Test(
    "a hostile manifest of 20,000 fields (1.2 MB) is compared in linear time, naming the one added")
  func wideManifest() async throws {
    // Before the comparison looked fields up by name, this took minutes (quadratic).
    let old = directory.path("old.json")
    let new = directory.path("new.json")
    try Self.wide(20_000, extra: nil).write(to: URL(fileURLWithPath: old))
    try Self.wide(20_000, extra: "x").write(to: URL(fileURLWithPath: new))
    let result = await run(["manifest", "diff", old, new])
    #expect(result.status == 1)
    let lines = result.out.split(separator: "\n").map(String.init)
    let expected =
      "  loses routes: tag `Shop.Wide` gained field `x` with no default: routes saved by the old "
      + "release will be dropped"
    #expect(lines.count == 3)
    #expect(lines.dropFirst().first == expected)
  }

  @Test("a folder given as OLD or NEW is refused as no input file")
  func folder() async throws {
    let good = try write(Self.before(), "good.json")
    for arguments in [[directory.url.path, good], [good, directory.url.path]] {
      let result = await run(["manifest", "diff"] + arguments)
      #expect(result.status == 66)
      #expect(result.err.contains("is a directory"))
    }
  }

  @Test("an unknown action, a missing NEW and --db are usage errors")
  func usage() async throws {
    let old = try write(Self.before(), "old.json")
    let show = await run(["manifest", "show", old, old])
    #expect(show.status == 64)
    #expect(
      show.err
        == "waypoint manifest: unknown action 'show': expected 'diff'\n"
        + "Run 'waypoint manifest --help' for its usage.")
    // A misspelt action gets the suggestion a misspelt command or option gets.
    let dif = await run(["manifest", "dif", old, old])
    #expect(dif.status == 64)
    #expect(dif.err.hasPrefix("waypoint manifest: unknown action 'dif' (did you mean 'diff'?)\n"))
    let fixtures = await run(["fixtures", "recrod", "--demo", "1.0", "F"])
    #expect(fixtures.status == 64)
    #expect(
      fixtures.err.hasPrefix(
        "waypoint fixtures: unknown action 'recrod' (did you mean 'record'?)\n"))
    #expect(await run(["manifest", "diff", old]).status == 64)
    #expect(await run(["manifest", "diff", old, old, "--db", "x.sqlite"]).status == 64)
  }

  /// The example shop's frozen releases (Tests/ExampleShopTests/Fixtures).
  static let shop = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("ExampleShopTests/Fixtures")

  @Test("the example shop's 1.0 to its committed manifest: every change named, none loses routes")
  func exampleShop() async {
    let old = Self.shop.appendingPathComponent("1.0/manifest.json").path
    let new = Self.shop.appendingPathComponent("routes.manifest.json").path
    let result = await run(["manifest", "diff", old, new, "--release", "1.0"])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out == """
        Comparing \(old) with \(new):
          note: tag `Shop.Checkout`: shape changed with version 2 (its migrations carry routes saved by 1.0; the round-trip and frozen-release checks prove them)
          note: tag `Shop.Route` (now `Shop.Destination`): shape changed with version 3 (its migrations carry routes saved by 1.0; the round-trip and frozen-release checks prove them)
          note: tag `Shop.Tab`: value `wallet` added
          note: tag `Shop.Wallet` added
        4 differences, 0 losing routes saved by 1.0.
        """)
    // Backwards, as a downgrade would read them: 3.0's routes are all newer than 1.0's.
    let back = await run(["manifest", "diff", new, old, "--release", "3.0"])
    #expect(back.status == 1)
    #expect(
      back.out.contains(
        "  loses routes: route schema went down from 3 to 1: routes saved by 3.0 will all be "
          + "dropped as newer"))
  }
}
