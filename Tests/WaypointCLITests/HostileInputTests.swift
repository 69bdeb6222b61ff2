import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One hostile store or input, the command run on it, and the outcome written down in advance.
struct HostileCase: Sendable, CustomTestStringConvertible {
  /// What a case's setup leaves for the command.
  struct Setup {
    /// The store (`--db`).
    var store: String
    /// The command and its arguments after `--db STORE`.
    var arguments: [String]
    /// Standard input.
    var input = Data()
  }

  var name: String
  /// The exit status expected.
  var status: Int32
  /// Text expected in stderr (statuses 64 and up) or stdout.
  var says: String
  var setup: @Sendable (TemporaryDirectory) async throws -> Setup
  /// Checks after the command (the store untouched, nothing fired, …).
  var after: @Sendable (Setup, Run) async throws -> Void = { _, _ in }

  var testDescription: String { name }
}

/// Deep nesting: `[[[…]]]`, 100,000 levels.
let deepArray =
  String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)

/// The checked-in store written by schema version 1 (`Tests/WaypointSQLiteTests/Fixtures`).
let schemaOneFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent(
    "WaypointSQLiteTests/Fixtures/schema-1.sqlite"
  )
  .path

/// A path holding `text`, in the case's directory.
func file(_ directory: TemporaryDirectory, _ name: String, _ text: String) throws -> String {
  let path = directory.path(name)
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// Every hostile store and input of issue 13, run through the tool, each with its expected outcome.
@Suite("hostile stores and inputs, each with its expected outcome")
struct HostileInputTests {
  let directory = TemporaryDirectory()

  static let cases: [HostileCase] = [
    HostileCase(
      name: "a store from a newer schema is refused and left unchanged", status: 65,
      says: "store schema 99 is newer than this build supports",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(path, "INSERT INTO waypoint_migration VALUES (99, 'future', 0)")
        return .init(
          store: path, arguments: ["import-path", "--scene", "phone", "-"],
          input: Data(#"["Swift.Int","1"]"#.utf8))
      },
      after: { setup, _ in
        #expect(rawQuery(setup.store, "SELECT count(*) FROM snapshot") == [["4"]])
      }),
    HostileCase(
      name: "a schema-1 store is read, and upgraded by a command that writes", status: 0,
      says: "Saved snapshot 6 of scene scene-1",
      setup: { directory in
        let path = directory.path("schema-1.sqlite")
        try FileManager.default.copyItem(atPath: schemaOneFixture, toPath: path)
        #expect(await run(["--db", path, "scenes"]).out.contains("scene-1"))
        return .init(
          store: path, arguments: ["import-path", "--scene", "scene-1", "-"],
          input: Data(#"["Swift.Int","9"]"#.utf8))
      },
      after: { setup, _ in
        #expect(
          rawQuery(setup.store, "SELECT max(version) FROM waypoint_migration")
            == [["\(SnapshotStore.supportedSchemaVersion)"]])
      }),
    HostileCase(
      name: "another application's database (a foreign application id) is never touched",
      status: 65, says: "not a Waypoint store",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(path, "PRAGMA application_id = 1")
        return .init(store: path, arguments: ["discard", "phone"])
      },
      after: { setup, _ in
        #expect(rawQuery(setup.store, "SELECT count(*) FROM snapshot") == [["4"]])
      }),
    HostileCase(
      name: "planted triggers never fire and planted views are never used", status: 0,
      says: "Discarded 2 snapshots",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(
          path,
          """
          CREATE TABLE fired (what TEXT);
          CREATE TRIGGER on_delete BEFORE DELETE ON snapshot BEGIN INSERT INTO fired VALUES (1); END;
          CREATE VIEW planted AS SELECT * FROM snapshot;
          """)
        return .init(store: path, arguments: ["discard", "phone"])
      },
      after: { setup, _ in
        #expect(rawQuery(setup.store, "SELECT count(*) FROM fired") == [["0"]])
      }),
    HostileCase(
      name: "a 100 MB document is never loaded: show refuses it", status: 65,
      says: "snapshot 2: input is 104857600 bytes, over the limit of 1048576",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(path, "UPDATE snapshot SET document = zeroblob(104857600) WHERE id = 2")
        return .init(store: path, arguments: ["show", "phone"])
      }),
    HostileCase(
      name: "a 100 MB document is stepped over by scenes", status: 0, says: "phone",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(path, "UPDATE snapshot SET document = zeroblob(104857600) WHERE id = 2")
        return .init(store: path, arguments: ["scenes"])
      }),
    HostileCase(
      name: "a 100 MB latest document: import-path saves without reading it", status: 0,
      says: "Saved snapshot 5 of scene phone",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(path, "UPDATE snapshot SET document = zeroblob(104857600) WHERE id = 2")
        return .init(
          store: path, arguments: ["import-path", "--scene", "phone", "-"],
          input: Data(#"["Swift.Int","1"]"#.utf8))
      }),
    HostileCase(
      name: "a document nested 100,000 levels deep is refused, not parsed", status: 65,
      says: "snapshot 2: JSON is nested deeper than the limit of 32 levels",
      setup: { directory in
        let path = try exampleStore(directory)
        rawSQL(
          path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data(deepArray.utf8))
        return .init(store: path, arguments: ["show", "phone"])
      }),
    HostileCase(
      name: "a route payload nested 100,000 levels deep is redacted whole, not parsed", status: 0,
      says: "Exported 4 snapshots",
      setup: { directory in
        let path = try exampleStore(directory)
        let document =
          #"{"format":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"main":[{"tag":"Shop.Route","json":"\#(deepArray)"}]}}"#
        rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data(document.utf8))
        return .init(
          store: path,
          arguments: ["export", "--redact", "--output", directory.path("out.jsonl")])
      }),
    HostileCase(
      name: "a NavigationPath input nested 100,000 levels deep is refused", status: 65,
      says: "JSON is nested deeper than the limit of 32 levels",
      setup: { directory in
        .init(
          store: try exampleStore(directory), arguments: ["import-path", "--scene", "phone", "-"],
          input: Data(deepArray.utf8))
      }),
    HostileCase(
      name: "an import line nested 100,000 levels deep is refused with its line number",
      status: 65, says: "lines.jsonl:1: JSON is nested deeper than the limit of 32 levels",
      setup: { directory in
        let lines = try file(directory, "lines.jsonl", deepArray + "\n")
        return .init(store: directory.path("new.sqlite"), arguments: ["import", lines])
      },
      after: { setup, _ in #expect(!FileManager.default.fileExists(atPath: setup.store)) }),
    HostileCase(
      name: "a document of a million routes is over the size limit, never loaded", status: 65,
      says: "over the limit of 1048576",
      setup: { directory in
        let path = try exampleStore(directory)
        let routes = Array(repeating: #"{"tag":"Swift.Int","json":"1"}"#, count: 1_000_000)
        let document =
          #"{"format":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"main":["#
          + routes.joined(separator: ",") + "]}}"
        rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data(document.utf8))
        return .init(store: path, arguments: ["show", "phone"])
      }),
    HostileCase(
      name: "a NavigationPath of a million routes is over the size limit", status: 65,
      says: "over the limit of 1048576",
      setup: { directory in
        let pairs = Array(repeating: #""Swift.Int","1""#, count: 1_000_000)
        return .init(
          store: try exampleStore(directory), arguments: ["import-path", "--scene", "phone", "-"],
          input: Data(("[" + pairs.joined(separator: ",") + "]").utf8))
      }),
    sceneCase("an empty scene id", "", status: 65, says: "a scene id cannot be empty"),
    sceneCase(
      "a scene id of 10,000 characters", String(repeating: "s", count: 10_000), status: 65,
      says: "a scene id is at most 1024 UTF-8 bytes (this one has 10000)"),
    sceneCase(
      "a scene id holding a NUL", "a\u{0}b", status: 65,
      says: "a scene id cannot contain control characters (U+0000)"),
    sceneCase(
      "a scene id with a bidirectional override, printed escaped", "\u{202E}evil", status: 0,
      says: #"scene \u{202E}evil"#),
    sceneCase(
      "a scene id of SQL, stored as text", "x'); DROP TABLE snapshot; --", status: 0,
      says: "scene x'); DROP TABLE snapshot; --"),
    HostileCase(
      name: "NFC and NFD forms of one scene id are two scenes", status: 0,
      says: "cafe\u{301}",
      setup: { directory in
        let path = try exampleStore(directory)
        for scene in ["caf\u{E9}", "cafe\u{301}"] {
          _ = await run(
            ["--db", path, "import-path", "--scene", scene, "-"],
            input: Data(#"["Swift.Int","1"]"#.utf8))
        }
        return .init(store: path, arguments: ["scenes"])
      },
      after: { setup, _ in
        #expect(rawQuery(setup.store, "SELECT count(DISTINCT scene_id) FROM snapshot") == [["5"]])
      }),
    HostileCase(
      name: "a store opened through a symbolic link is used, and the link stays a link", status: 0,
      says: "Saved snapshot 5 of scene phone",
      setup: { directory in
        let real = try exampleStore(directory, name: "real.sqlite")
        let link = directory.path("link.sqlite")
        #expect(symlink(real, link) == 0)
        return .init(
          store: link, arguments: ["import-path", "--scene", "phone", "-"],
          input: Data(#"["Swift.Int","1"]"#.utf8))
      },
      after: { setup, _ in
        #expect(
          (try? FileManager.default.destinationOfSymbolicLink(atPath: setup.store)) != nil)
      }),
    HostileCase(
      name: "a WAL with a damaged header: check says its commits are lost", status: 1,
      says: "the WAL file's header is damaged (bad magic number)",
      setup: { directory in
        let path = try exampleStore(directory)
        // The example store was closed, so its WAL is gone: one is planted, garbled.
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: path + "-wal"))
        return .init(store: path, arguments: ["check", "--full"])
      }),
    HostileCase(
      name: "a WAL whose -shm index is missing is read whole", status: 0,
      says: "phone",
      setup: { directory in
        let path = directory.path()
        let copy = directory.path("copy.sqlite")
        let store = try SnapshotStore(path: path)
        try store.save(try stackSnapshot([.product(id: 1)]), scene: "phone")
        // Copied while open: the save is in the WAL; the -shm index is left behind.
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        withExtendedLifetime(store) {}
        return .init(store: copy, arguments: ["scenes"])
      }),
  ]

  /// `import-path` for a scene id, then (when it is accepted) `scenes` to show how it prints.
  static func sceneCase(_ name: String, _ scene: String, status: Int32, says: String)
    -> HostileCase
  {
    HostileCase(
      name: name, status: status, says: says,
      setup: { directory in
        let path = try exampleStore(directory)
        return .init(
          store: path, arguments: ["import-path", "--scene", scene, "-"],
          input: Data(#"["Swift.Int","1"]"#.utf8))
      },
      after: { setup, result in
        guard result.status == 0 else {
          #expect(rawQuery(setup.store, "SELECT count(*) FROM snapshot") == [["4"]])
          return
        }
        let scenes = await run(["--db", setup.store, "scenes"])
        #expect(scenes.status == 0)
        #expect(rawQuery(setup.store, "SELECT count(*) FROM snapshot") == [["5"]])
      })
  }

  @Test("each hostile case ends as written", arguments: cases)
  func hostile(_ hostile: HostileCase) async throws {
    // Some cases write 100 MB stores: the directory goes when the case is done.
    defer { try? FileManager.default.removeItem(at: directory.url) }
    let setup = try await hostile.setup(directory)
    let result = await run(["--db", setup.store] + setup.arguments, input: setup.input)
    #expect(result.status == hostile.status, "\(result.err)")
    let said = hostile.status >= 64 ? result.err : result.out + "\n" + result.err
    #expect(said.contains(hostile.says), "\(said.prefix(600))")
    try await hostile.after(setup, result)
  }
}
