import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint import-path and export-path: SwiftUI's NavigationPath JSON")
struct PathRoundTripTests {
  let directory = TemporaryDirectory()

  /// The two real samples from DESIGN.md, captured from SwiftUI apps, as their exact bytes.
  static let samples = [
    #"["NavigationBackportApp.EmojiVisualisation","{\"emoji\":\"🎈\",\"count\":99}","Swift.Int","99"]"#,
    #"["User","{\"id\":42,\"name\":\"Blob\"}","Swift.Bool","true","Swift.Int","42","Swift.String","\"hello\""]"#,
  ]

  @Test(
    "import-path then export-path gives back the same bytes, unknown tags included",
    arguments: samples)
  func sameBytes(sample: String) async throws {
    let file = directory.path("path.json")
    try Data(sample.utf8).write(to: URL(fileURLWithPath: file))
    let store = directory.path()
    let imported = await run(["--db", store, "import-path", "--scene", "s", file])
    #expect(imported.status == 0)
    let exported = await run(["--db", store, "export-path", "--scene", "s"])
    #expect(exported.status == 0)
    #expect(exported.outData == Data(sample.utf8))
  }

  @Test(
    "a path JSONEncoder wrote survives import-path, export, import and export-path byte for byte")
  func throughExportAndImport() async throws {
    struct Link: Codable {
      var url: String
      var note: String
    }
    let element = try JSONEncoder().encode(Link(url: "https://example.com/a", note: "🎈\u{1}\t\""))
    let path = try JSONEncoder().encode(
      ["MyApp.Link", String(decoding: element, as: UTF8.self), "Swift.Int", "1"])
    let first = directory.path("first.sqlite")
    let second = directory.path("second.sqlite")
    #expect(
      await run(["--db", first, "import-path", "--scene", "s", "-"], input: path).status == 0)
    let lines = directory.path("lines.jsonl")
    #expect(await run(["--db", first, "export", "--output", lines]).status == 0)
    #expect(await run(["--db", second, "import", lines]).status == 0)
    #expect(await run(["--db", second, "export-path", "--scene", "s"]).outData == path)
  }

  @Test("the stack is stored root first, each element verbatim, in the named stack")
  func stored() async throws {
    let store = directory.path()
    let result = await run(
      ["--db", store, "import-path", "--scene", "s", "--stack", "detail", "-"],
      input: Data(Self.samples[0].utf8))
    #expect(result.status == 0)
    #expect(
      result.out
        == "Saved snapshot 1 of scene s: stack detail with 2 routes in \(store), a new store.")
    let snapshot = try SceneSnapshot(
      decoding: try #require(
        try SnapshotStore(path: store, access: .readOnly).snapshot(id: 1)?.document.data))
    #expect(
      snapshot.stacks["detail"] == [
        RouteRecord(tag: "Swift.Int", json: "99"),
        RouteRecord(
          tag: "NavigationBackportApp.EmojiVisualisation", json: #"{"emoji":"🎈","count":99}"#),
      ])
  }

  @Test("importing into a scene keeps its other stacks, selections and sheet")
  func keepsTheRest() async throws {
    let store = try exampleStore(directory)
    let result = await run(
      ["--db", store, "import-path", "--scene", "tablet", "--stack", "shop", "-", "--json"],
      input: Data(#"["Swift.Int","5"]"#.utf8))
    let document = try result.json()
    #expect(document["basedOn"] as? Int == 3)
    #expect(document["snapshot"] as? Int == 5)
    #expect(document["wrote"] as? Bool == true)
    #expect(document["routes"] as? Int == 1)
    let shown = await run(["--db", store, "show", "tablet"])
    #expect(shown.out.contains("stack shop: 1 route, root to top\n│       └── [0] Swift.Int 5"))
    #expect(shown.out.contains("stack orders (selected tab)"))
    #expect(shown.out.contains("└── sheet: Shop.Route"))
    // The same stack again writes nothing.
    let again = await run(
      ["--db", store, "import-path", "--scene", "tablet", "--stack", "shop", "-"],
      input: Data(#"["Swift.Int","5"]"#.utf8))
    #expect(
      again.out
        == "Scene tablet already holds stack shop with 1 route in its latest snapshot 5; nothing written."
    )
  }

  @Test(
    "malformed input exits 65 naming the input, and writes nothing",
    arguments: [
      ("[1,2", "stdin: not valid JSON: unexpected end of the input at line 1, column 5 (byte 4)"),
      (#"{"a":1}"#, "stdin: a NavigationPath representation must be a JSON array of strings"),
      (#"["a"]"#, "stdin: a NavigationPath array needs type/value pairs but has 1 element"),
      (#"["a",1]"#, "stdin: element 1 of the NavigationPath array is not a string"),
      (
        String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        "stdin: JSON is nested deeper than the limit of 32 levels"
      ),
    ])
  func malformed(input: String, message: String) async throws {
    let store = directory.path()
    let result = await run(
      ["--db", store, "import-path", "--scene", "s", "-"], input: Data(input.utf8))
    #expect(result.status == 65)
    #expect(result.err == "waypoint import-path: \(message)")
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test("input over the document limit is refused without reading it all")
  func oversized() async throws {
    let file = directory.path("big.json")
    try Data(repeating: 0x20, count: (1 << 20) + 10).write(to: URL(fileURLWithPath: file))
    let result = await run(["--db", directory.path(), "import-path", "--scene", "s", file])
    #expect(result.status == 65)
    #expect(result.err == "waypoint import-path: \(file): input is over the limit of 1048576 bytes")
    let missing = await run([
      "--db", directory.path(), "import-path", "--scene", "s", directory.path("x.json"),
    ])
    #expect(missing.status == 66)
  }

  @Test("export-path names what is missing: the scene, or the stack with the ones there are")
  func exportErrors() async throws {
    let store = try exampleStore(directory)
    let noStack = await run(["--db", store, "export-path", "--scene", "tablet"])
    #expect(noStack.status == 65)
    #expect(
      noStack.err
        == "waypoint export-path: \(store): snapshot 3 of scene tablet has no stack 'main' (its stacks: detail, orders, shop)"
    )
    #expect(await run(["--db", store, "export-path", "--scene", "nope"]).status == 65)
    #expect(await run(["--db", store, "export-path"]).status == 64)
  }

  @Test("export-path ends with a newline only on a terminal")
  func newline() async throws {
    let store = try exampleStore(directory)
    let capture = Capture()
    capture.outIsTerminal = true
    let status = await WaypointTool.run(
      ["--db", store, "export-path", "--scene", "tablet", "--stack", "detail"],
      console: capture.console)
    #expect(status == 0)
    #expect(capture.outData == Data("[\"Shop.Route\",\"{\\\"settings\\\":{}}\"]\n".utf8))
  }

  @Test(
    "the built tool reads stdin for - and round-trips the samples byte for byte", arguments: samples
  )
  func process(sample: String) throws {
    let store = directory.path()
    let imported = try runProcess(
      ["--db", store, "import-path", "--scene", "s", "-"], input: Data(sample.utf8))
    #expect(imported.status == 0)
    let exported = try runProcess(["--db", store, "export-path", "--scene", "s"])
    #expect(exported.status == 0)
    #expect(exported.outData == Data(sample.utf8))
  }
}
