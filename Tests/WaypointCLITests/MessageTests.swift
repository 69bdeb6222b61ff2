import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Errors speak the tool's own words: JSON kinds rather than Swift types, the file and the place
/// (line, column, byte) rather than "The given data was not valid JSON.", and the store or input
/// file every error concerns.
@Suite("error messages in the tool's own words")
struct MessageTests {
  let directory = TemporaryDirectory()

  /// Words that only Swift's internals use.
  static let internals = [
    "Dictionary<", "Array<", "The given data was not valid JSON", "DecodingError",
    "Data was corrupted", "Swift.", "Any>", "The operation could not be completed",
  ]

  func expectOwnWords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for word in Self.internals {
      #expect(!text.contains(word), "\(text)", sourceLocation: sourceLocation)
    }
  }

  @Test(
    "the JSON locator finds a problem exactly where JSONDecoder refuses to read the whole text",
    arguments: [1, 2] as [UInt64])
  func locatorAgreesWithFoundation(seed: UInt64) throws {
    var generator = SplitMix64(state: seed)
    let samples = [
      #"{"a":[1,-2.5e3,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9"],"b":{}}"#,
      #"["NavigationBackportApp.EmojiVisualisation","{\"emoji\":\"🎈\",\"count\":99}"]"#,
      #" {"format":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"main":[]}} "#, "0", "\"s\"",
    ]
    let pieces = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn"#.utf8)
    var accepted = 0
    var refused = 0
    var located = 0
    for iteration in 0..<10_000 {
      var bytes = Array((samples.randomElement(using: &generator) ?? "0").utf8)
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let at = Int.random(in: 0...bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where at < bytes.count: bytes.remove(at: at)
        case 1 where at < bytes.count:
          bytes[at] = pieces.randomElement(using: &generator) ?? 0x20
        default: bytes.insert(pieces.randomElement(using: &generator) ?? 0x20, at: at)
        }
      }
      let data = Data(bytes)
      let problem = JSONStructure.firstProblem(in: data)
      if (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil {
        accepted += 1
        #expect(
          problem == nil,
          "seed \(seed) iteration \(iteration): \(String(decoding: data, as: UTF8.self))")
      } else {
        refused += 1
        if let problem {
          located += 1
          #expect(
            problem.offset <= bytes.count,
            "seed \(seed) iteration \(iteration): \(String(decoding: data, as: UTF8.self))")
        }
      }
    }
    #expect(accepted > 250 && refused > 2_500, "\(accepted) accepted, \(refused) refused")
    #expect(located == refused, "\(located) of \(refused)")
  }

  @Test("a location names the line, the column in characters and the byte offset")
  func location() throws {
    let problem = try #require(JSONStructure.firstProblem(in: Data("{\"é\":\n [1, x]}".utf8)))
    #expect(problem.description == "expected a value, found 'x' at line 2, column 6 (byte 12)")
    #expect(
      JSONStructure.firstProblem(in: Data("[1,2".utf8))?.description
        == "unexpected end of the input at line 1, column 5 (byte 4)")
    #expect(
      JSONStructure.firstProblem(in: Data("{} x".utf8))?.message
        == "extra text after the JSON value, found 'x'")
    #expect(
      JSONStructure.firstProblem(in: Data(#"["a","b\q"]"#.utf8))?.description
        == "invalid escape in a string, found 'q' at line 1, column 8 (byte 7)")
    #expect(
      JSONStructure.firstProblem(in: Data("[1, 1e400]".utf8))?.description
        == "1e400 is not a number JSONDecoder reads at line 1, column 5 (byte 4)")
    #expect(JSONStructure.firstProblem(in: Data(" [1, {\"a\": null}] ".utf8)) == nil)
  }

  @Test("import-path names the input and where its JSON breaks")
  func importPathPosition() async throws {
    let store = directory.path()
    let stdin = await run(
      ["--db", store, "import-path", "--scene", "s", "-"], input: Data("[\"a\",\n \"b\", x]".utf8))
    #expect(stdin.status == 65)
    #expect(
      stdin.err
        == "waypoint import-path: stdin: not valid JSON: expected a value, found 'x' at line 2, column 7 (byte 12)"
    )
    let file = directory.path("path.json")
    try Data("{\"not\": \"an array\"}".utf8).write(to: URL(fileURLWithPath: file))
    let object = await run(["--db", store, "import-path", "--scene", "s", file])
    #expect(object.status == 65)
    #expect(object.err.hasPrefix("waypoint import-path: \(file): "))
    expectOwnWords(object.err)
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test(
    "import names the line and the column where a line breaks, and JSON kinds",
    arguments: [
      (
        #"{"scene":"a", "document": [}"#,
        "2: not valid JSON at column 28 (byte 27): expected a value, found '}'"
      ),
      (
        #"{"scene":"a","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z","stacks":[]}}"#,
        "2: document: invalid field stacks: expected an object, found an array"
      ),
      (
        #"{"scene":"a","document":{"format":"1","savedAt":"2026-11-29T12:00:00Z"}}"#,
        "2: document: invalid field format: expected a number, found a string"
      ),
    ])
  func importPosition(line: String, message: String) async throws {
    let good = #"{"scene":"a","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    let file = directory.path("lines.jsonl")
    try Data((good + "\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let result = await run(["--db", directory.path(), "import", file])
    #expect(result.status == 65)
    #expect(result.err == "waypoint import: \(file):\(message)")
    expectOwnWords(result.err)
  }

  @Test(
    "a manifest that is not one is explained in JSON's words, with the place",
    arguments: [
      "{\"manifest\":1,\"schemaVersion\":1,\n\"routes\":{}}",
      "{\"manifest\":1,\n\"schemaVersion\":1,\"routes\":[}", "", "[]",
    ])
  func manifestWords(text: String) async throws {
    let store = try exampleStore(directory)
    let manifest = directory.path("routes.manifest.json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
    let result = await run(["--db", store, "validate", "--manifest", manifest])
    #expect(result.status == 65)
    #expect(result.err.hasPrefix("waypoint validate: \(manifest): "))
    expectOwnWords(result.err)
  }

  @Test("a manifest's JSON error names the line, the column and the byte")
  func manifestPlace() async throws {
    let store = try exampleStore(directory)
    let manifest = directory.path("routes.manifest.json")
    try Data("{\"manifest\":1,\n\"schemaVersion\":1,\"routes\":[}".utf8).write(
      to: URL(fileURLWithPath: manifest))
    #expect(
      await run(["--db", store, "validate", "--manifest", manifest]).err.hasSuffix(
        "not JSON: expected a value, found '}' at line 2, column 29 (byte 43)"))
  }

  @Test("a stored document that is not JSON is named with its snapshot and the place")
  func storedDocument() async throws {
    let store = try exampleStore(directory)
    #expect(
      rawSQL(
        store, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data("{\"format\":1,]".utf8))
        == 0)
    let result = await run(["--db", store, "show", "phone"])
    #expect(result.status == 65)
    #expect(
      result.err
        == "waypoint show: \(store): snapshot 2: malformed JSON: expected a member name in quotes, found ']' at line 1, column 13 (byte 12)"
    )
  }

  @Test("rollback errors name the store, and the snapshot that cannot be read")
  func rollbackNamesTheStore() async throws {
    let store = try exampleStore(directory)
    let unknown = await run(["--db", store, "rollback", "phone", "--to", "3"])
    #expect(unknown.status == 65)
    #expect(unknown.err == "waypoint rollback: \(store): no snapshot 3 in scene phone")
    let newer = Data(#"{"format":9,"savedAt":"2026-11-29T12:00:00Z"}"#.utf8)
    #expect(rawSQL(store, "UPDATE snapshot SET document = ? WHERE id = 1", blob: newer) == 0)
    let unreadable = await run(["--db", store, "rollback", "phone", "--to", "1"])
    #expect(unreadable.status == 65)
    #expect(
      unreadable.err
        == "waypoint rollback: \(store): snapshot 1: snapshot format 9 is newer than this build reads (up to 1)"
    )
  }

  @Test("import-path names the input when the snapshot it makes is over the store's limit")
  func importPathTooLarge() async throws {
    let store = directory.path()
    let big = String(repeating: "a", count: 600_000)
    try SnapshotStore(path: store).save(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: ["other": [RouteRecord(tag: "T", json: "\"\(big)\"")]]), scene: "s")
    let file = directory.path("path.json")
    try Data(#"["T","\"\#(big)\""]"#.utf8).write(to: URL(fileURLWithPath: file))
    let before = try fingerprint(store).0
    let result = await run(["--db", store, "import-path", "--scene", "s", file])
    #expect(result.status == 65)
    #expect(
      result.err.hasPrefix("waypoint import-path: \(file): the snapshot it makes (stack main"))
    #expect(result.err.hasSuffix("over the store's limit of 1048576; nothing written"))
    #expect(try fingerprint(store).0 == before)
  }

  /// A Unix socket bound at `path`: a file that exists and that no one can open, root included
  /// (`open` fails with ENXIO). Returns its descriptor, to close.
  func socketFile(_ path: String) throws -> Int32 {
    #if canImport(Glibc)
      let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    try #require(descriptor >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
    }
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    return descriptor
  }

  @Test(
    "an input file that cannot be opened is named with the system's reason in the tool's words",
    arguments: [
      ["import", "INPUT"], ["import-path", "--scene", "s", "INPUT"],
      ["validate", "--manifest", "INPUT"], ["manifest", "diff", "INPUT", "INPUT"],
    ])
  func inputCannotOpen(arguments: [String]) async throws {
    let store = try exampleStore(directory)
    let input = directory.path("input.sock")
    let descriptor = try socketFile(input)
    defer { close(descriptor) }
    let result = await run(
      (arguments[0] == "manifest" ? [] : ["--db", store])
        + arguments.map { $0 == "INPUT" ? input : $0 })
    #expect(result.status == 66)
    #expect(
      result.err == "waypoint \(arguments[0]): \(input): cannot open: no such device or address")
    expectOwnWords(result.err)
  }

  @Test("an output file whose folder is a file is named with the system's reason")
  func outputCannotCreate() async throws {
    let store = try exampleStore(directory)
    let file = directory.path("plain.txt")
    try Data("a file, not a folder".utf8).write(to: URL(fileURLWithPath: file))
    for arguments in [
      ["export", "--output", file + "/out.jsonl"],
      ["export-path", "--scene", "phone", "--output", file + "/out.json"],
      ["recover", "--output", file + "/out.sqlite"],
    ] {
      let result = await run(["--db", store] + arguments)
      #expect(result.status == 74)
      #expect(
        result.err
          == "waypoint \(arguments[0]): \(arguments.last ?? ""): cannot create: not a directory")
      expectOwnWords(result.err)
    }
    let demo = await run(["demo", "--output", file + "/sub"])
    #expect(demo.status == 74)
    #expect(demo.err == "waypoint demo: \(file)/sub: cannot create: not a directory")
  }

  @Test("the reason of a Foundation error is its POSIX code's, in the tool's words")
  func foundationReasons() throws {
    let url = URL(fileURLWithPath: directory.path("missing/file"))
    do {
      _ = try FileHandle(forReadingFrom: url)
      Issue.record("opened a missing file")
    } catch {
      #expect(CLIError.reason(error) == "no such file or directory")
    }
    #expect(CLIError.reason(CocoaError(.fileReadNoPermission)) == "permission denied")
    #expect(CLIError.reason(POSIXError(.ENOSPC)) == "no space left on device")
    #expect(
      CLIError.reason(
        NSError(
          domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
          userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))]
        )) == "permission denied")
  }
}
