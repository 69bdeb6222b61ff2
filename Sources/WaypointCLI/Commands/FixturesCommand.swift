import ExampleShop
import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `waypoint fixtures record RELEASE DIR (--demo | --manifest FILE) [--scene ID] [--force]`: freezes a release for `WaypointTesting`'s `releasesRestore` assertion.
enum FixturesCommand: WaypointCommand {
  static let action = PositionalKey("ACTION", help: "record (the one action).")
  static let release = PositionalKey(
    "RELEASE", help: "The release's name, such as 1.0 (it names the folder).")
  static let output = PositionalKey("DIR", help: "The folder of the app's frozen releases.")
  static let scene = OptionKey<String>(
    "--scene", value: "ID", help: "Record only this scene of the store. Default: every scene.")
  static let demo = FlagKey(
    "--demo", help: "Record the demo app's 1.0 scene instead of a store's (no --db, --manifest).")
  static let force = FlagKey(
    OutputFile.force.name, help: "Replace the release's folder when it was recorded already.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "fixtures",
      summary: "Freeze a release's scenes as test fixtures for WaypointTesting.",
      discussion: [
        "record writes DIR/RELEASE/: the release's route manifest (manifest.json), the latest "
          + "snapshot document of each scene of the store (SCENE.snapshot.json, byte for byte), "
          + "and expectations.json, the outcome each one restores to under the manifest "
          + "with the app's default policy, cut (restored, or partial or root with the named drops). WaypointTesting's "
          + "WaypointAssert.releasesRestore then proves on every build that they still do.",
        "The folder is written under a temporary name and renamed into place; a recorded "
          + "release is never replaced without --force. A scene whose restore only the app can "
          + "judge (an undetermined route) is refused with exit 65: record it from a test with "
          + "FrozenRelease, where the app's code runs. With --demo, the demo app's 1.0 scene is "
          + "recorded under its own registry, and the store options are not used.",
      ],
      positionals: [action.declaration, release.declaration, output.declaration],
      options: [
        ManifestInput.manifest.declaration, scene.declaration, demo.declaration,
        force.declaration,
      ])
  }

  /// One fixture to write: its bytes, kind, and the report it must restore to.
  struct Fixture {
    var name: String
    var data: Data
    var report: RestoreReport
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    guard context[action] == "record" else {
      throw .unknownAction(context[action] ?? "", expected: ["record"])
    }
    let name = context[release] ?? ""
    let folder = context[output] ?? ""
    try checkName(name, what: "release")
    let manifest: RouteManifest
    var fixtures: [Fixture] = []
    if context[demo] {
      guard context[ManifestInput.manifest] == nil, context[scene] == nil else {
        throw .usage("--demo records the demo's scene: it takes no --manifest or --scene")
      }
      let registry = DemoApp.V1.registry()
      manifest = RouteManifest(registry: registry)
      let data = DemoApp.savedScene().encoded()
      fixtures.append(
        Fixture(
          name: DemoCommand.phoneScene, data: data,
          report: Restorer(registry: registry).restore(encoded: data).report))
    } else {
      guard let loaded = try ManifestInput.manifest(in: context) else {
        throw .usage("fixtures record needs \(ManifestInput.manifest.name) FILE (or --demo)")
      }
      manifest = loaded
      fixtures = try storeFixtures(context, manifest: manifest)
    }
    let written = try write(fixtures, manifest: manifest, release: name, into: folder, context)
    if context.json {
      context.printJSON(
        RecordJSON(folder: written, release: name, fixtures: fixtures.map { ($0.name, $0.report) }))
    } else {
      for fixture in fixtures {
        context.console.out(
          "\(Formatting.printable(fixture.name)): \(fixture.report.outcome.rawValue)")
      }
      context.console.out(
        "Recorded release \(Formatting.printable(name)) (\(Formatting.count(fixtures.count, "scene"))) "
          + "in \(Formatting.printable(written)).")
    }
    return .ok
  }

  /// The latest snapshot of each scene (or of `--scene`), with the manifest's prediction.
  private static func storeFixtures(_ context: CommandContext, manifest: RouteManifest)
    throws(CLIError) -> [Fixture]
  {
    let store = try context.openStore(.read)
    let summaries = try context.store { () throws(StoreError) in try store.scenes() }
    var chosen = summaries
    if let id = context[scene] {
      guard let summary = summaries.first(where: { $0.id == id }) else {
        throw context.noScene(id, in: store)
      }
      chosen = [summary]
    }
    var fixtures: [Fixture] = []
    for summary in chosen {
      let id = summary.id
      try checkName(id, what: "scene")
      let stored = try context.store { () throws(StoreError) in
        try store.snapshot(id: summary.latest.id)
      }
      guard let data = stored?.document.data else {
        throw .data(
          "\(store.path): the latest snapshot of scene \(Formatting.printable(id)) is over the "
            + "size limit and is not read")
      }
      let prediction = manifest.predict(encoded: data)
      if prediction.hasUndetermined {
        throw .data(
          "scene \(Formatting.printable(id)): only the app can tell how it restores (an "
            + "undetermined route); record it from a test with FrozenRelease")
      }
      fixtures.append(Fixture(name: id, data: data, report: prediction.report))
    }
    if fixtures.isEmpty { throw .data("\(store.path): no scene to record") }
    return fixtures
  }

  private static let allowedNameCharacters = Set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

  /// Refuses a name that cannot be a file name (the rule of WaypointTesting's FrozenRelease).
  private static func checkName(_ name: String, what: String) throws(CLIError) {
    guard !name.isEmpty, name.count <= 100, name.first != ".",
      name.allSatisfy(allowedNameCharacters.contains)
    else {
      throw .usage(
        "\(what) '\(Formatting.printable(name))' cannot name a file: use 1 to 100 letters, "
          + "digits, '-', '_' and '.', not starting with '.'")
    }
  }

  /// Writes the release folder under a temporary name, then renames it into place.
  private static func write(
    _ fixtures: [Fixture], manifest: RouteManifest, release: String, into folder: String,
    _ context: CommandContext
  ) throws(CLIError) -> String {
    let manager = FileManager.default
    let root = URL(fileURLWithPath: folder, isDirectory: true)
    let destination = root.appendingPathComponent(release)
    // Whatever stands there, a link to nothing too.
    let exists = OutputFile.existing(destination.path) != .nothing
    if exists, !context[force] {
      throw CLIError(
        exitCode: .cantCreate,
        message: "\(destination.path) exists: a recorded release is replaced only with --force")
    }
    let temporary = root.appendingPathComponent(".\(release).tmp-\(UUID().uuidString)")
    let aside = root.appendingPathComponent(".\(release).old-\(UUID().uuidString)")
    // The snapshots hold the store's routes and scene names: the files are the owner's only
    // (0600, in a folder of 0700), as every file the tool writes from a store.
    func writeFiles() throws(CLIError) {
      let folder = temporary.path
      guard mkdir(folder, 0o700) == 0 else {
        let code = errno
        // A folder that cannot be written is a failing location (74), as for every output.
        throw CLIError(
          exitCode: [EACCES, EPERM, EROFS, ENOSPC, ENOENT].contains(code) ? .ioError : .cantCreate,
          message: "\(folder): cannot create: \(CLIError.reason(errno: code))")
      }
      func file(_ data: Data, _ name: String) throws(CLIError) {
        try OutputFile.write(data, to: folder + "/" + name, force: false, mode: 0o600)
      }
      try file(manifest.encoded(), "manifest.json")
      for fixture in fixtures { try file(fixture.data, "\(fixture.name).snapshot.json") }
      try file(expectations(fixtures, release: release), "expectations.json")
    }
    do {
      try manager.createDirectory(at: root, withIntermediateDirectories: true)
    } catch {
      // Something else than a folder standing at a name on the way can't be replaced (73); a
      // location that cannot be written fails (74).
      let blocked = [.file, .link].contains(OutputFile.existing(root.path))
      throw CLIError(
        exitCode: blocked ? .cantCreate : .ioError,
        message: "\(root.path): cannot create: \(CLIError.reason(error))")
    }
    do {
      try writeFiles()
      if exists { try manager.moveItem(at: destination, to: aside) }
      try manager.moveItem(at: temporary, to: destination)
      if exists { try? manager.removeItem(at: aside) }
    } catch {
      try? manager.removeItem(at: temporary)
      if exists, !manager.fileExists(atPath: destination.path) {
        try? manager.moveItem(at: aside, to: destination)
      }
      throw error as? CLIError
        ?? CLIError(
          exitCode: .cantCreate, message: "\(destination.path): \(CLIError.reason(error))")
    }
    return destination.path
  }

  /// `expectations.json` as WaypointTesting writes it (format 1).
  static func expectations(_ fixtures: [Fixture], release: String) -> Data {
    struct Drop: Encodable {
      var location: String
      var code: String
    }
    struct Entry: Encodable {
      var name: String
      var kind = "snapshot"
      var outcome: String
      var drops: [Drop]
    }
    struct File: Encodable {
      var formatVersion = 1
      var release: String
      var fixtures: [Entry]
    }
    let file = File(
      release: release,
      fixtures: fixtures.map { fixture in
        Entry(
          name: fixture.name, outcome: fixture.report.outcome.rawValue,
          drops: fixture.report.dropped.map {
            Drop(location: $0.location.description, code: $0.reason.code.rawValue)
          })
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return ((try? encoder.encode(file)) ?? Data()) + Data("\n".utf8)
  }

  private struct RecordJSON: JSONWritable {
    var folder: String
    var release: String
    var fixtures: [FixtureJSON]

    init(folder: String, release: String, fixtures: [(String, RestoreReport)]) {
      self.folder = folder
      self.release = release
      self.fixtures = fixtures.map { FixtureJSON(name: $0.0, outcome: $0.1.outcome.rawValue) }
    }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("folder", folder)
        json.member("release", release)
        json.member("fixtures", fixtures)
      }
    }
  }

  private struct FixtureJSON: JSONWritable {
    var name: String
    var outcome: String

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("name", name)
        json.member("outcome", outcome)
      }
    }
  }
}
