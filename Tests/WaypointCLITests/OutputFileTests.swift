import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointSQLite

@testable import WaypointCLI

/// Every command that creates a file follows one rule (`OutputFile`): never the store it reads,
/// never an existing file without `--force` (exit 73), written to a temporary file and renamed.
@Suite("commands never write over a file they did not announce")
struct OutputFileTests {
  let directory = TemporaryDirectory()

  /// The ways a user can name the store file again.
  enum Spelling: String, CaseIterable, Sendable {
    case samePath, dotDot, doubleSlash, hardLink, symbolicLink, wal, shm
  }

  /// The store at `store` named another way.
  func spell(_ store: String, _ spelling: Spelling) throws -> String {
    let folder = URL(fileURLWithPath: store).deletingLastPathComponent().path
    let name = URL(fileURLWithPath: store).lastPathComponent
    switch spelling {
    case .samePath: return store
    case .dotDot:
      try FileManager.default.createDirectory(
        atPath: folder + "/sub", withIntermediateDirectories: true)
      return folder + "/sub/../" + name
    case .doubleSlash: return folder + "//" + name
    case .hardLink:
      try FileManager.default.linkItem(atPath: store, toPath: folder + "/hard.sqlite")
      return folder + "/hard.sqlite"
    case .symbolicLink:
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/link.sqlite", withDestinationPath: store)
      return folder + "/link.sqlite"
    case .wal: return store + "-wal"
    case .shm: return store + "-shm"
    }
  }

  /// Files in the test's directory that a command left under a temporary name.
  func temporaryFiles(in folder: URL? = nil) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: (folder ?? directory.url).path)
      .filter { $0.contains(".tmp-") }
  }

  @Test(
    "export --output naming the store it reads is refused, even with --force, and the store is intact",
    arguments: Spelling.allCases, [false, true])
  func exportOntoStore(spelling: Spelling, force: Bool) async throws {
    let store = try exampleStore(directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let output = try spell(store, spelling)
    // The issue's reproducer: the store named by $WAYPOINT_DB, the output by the same name.
    let result = await run(
      ["export", "--output", output] + (force ? ["--force"] : []),
      environment: ["WAYPOINT_DB": store])
    #expect(result.status == 73)
    #expect(result.err.contains("\(output): is the store"), "\(result.err)")
    #expect(result.out.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(try SnapshotStore(path: store, access: .readOnly).statistics().snapshotCount == 4)
    #expect(try temporaryFiles().isEmpty)
  }

  @Test(
    "export-path --output naming the store is refused too",
    arguments: [Spelling.samePath, .symbolicLink, .wal])
  func exportPathOntoStore(spelling: Spelling) async throws {
    let store = try exampleStore(directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let output = try spell(store, spelling)
    let result = await run([
      "--db", store, "export-path", "--scene", "phone", "--output", output, "--force",
    ])
    #expect(result.status == 73)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test(
    "an existing file is kept unless --force is given; then it is replaced whole",
    arguments: [["export"], ["export-path", "--scene", "phone"]])
  func existingFile(command: [String]) async throws {
    let store = try exampleStore(directory)
    let file = directory.path("out-\(command[0])")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: file))
    let refused = await run(["--db", store] + command + ["--output", file])
    #expect(refused.status == 73)
    #expect(refused.err.hasSuffix("\(file): already exists; give --force to replace it"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("precious".utf8))

    let forced = await run(["--db", store] + command + ["--output", file, "--force"])
    #expect(forced.status == 0)
    let stdout = await run(["--db", store] + command)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == stdout.outData)
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try temporaryFiles().isEmpty)
  }

  @Test("--force replaces a symbolic link itself, never the file it points to")
  func forceReplacesLinkNotTarget() async throws {
    let store = try exampleStore(directory)
    let target = directory.path("target.txt")
    try Data("elsewhere".utf8).write(to: URL(fileURLWithPath: target))
    let link = directory.path("out.jsonl")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    #expect(await run(["--db", store, "export", "--output", link]).status == 73)
    #expect(await run(["--db", store, "export", "--output", link, "--force"]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("elsewhere".utf8))
    #expect(OutputFile.existing(link) == .file)
  }

  @Test("a device or a pipe is written into, never replaced, without --force")
  func deviceWrittenInto() async throws {
    let store = try exampleStore(directory)
    let result = await run(["--db", store, "export", "--output", "/dev/null"])
    #expect(result.status == 0)
    #expect(result.out == "Exported 4 snapshots to /dev/null.")
    #expect(OutputFile.isStream("/dev/null"))
    // Through a link, as a shell's /dev/fd/N or /dev/stdout is one.
    let link = directory.path("null-link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    #expect(await run(["--db", store, "export", "--output", link]).status == 0)
    #expect(OutputFile.existing(link) == .link)
  }

  @Test("a named pipe gets the export as stdout would, and stays a pipe")
  func pipeWrittenInto() async throws {
    let store = try exampleStore(directory)
    let fifo = directory.path("pipe")
    #expect(mkfifo(fifo, 0o600) == 0)
    // The reader opens the pipe as the command opens it for writing, and reads to the end.
    let reader = Task.detached { () -> Data in
      guard let handle = FileHandle(forReadingAtPath: fifo) else { return Data() }
      return handle.readDataToEndOfFile()
    }
    let result = await run(["--db", store, "export", "--output", fifo])
    #expect(result.status == 0)
    // Should the command have failed before it opened the pipe, this ends the reader's wait.
    let unblock = open(fifo, O_WRONLY | O_NONBLOCK)
    if unblock >= 0 { close(unblock) }
    let received = await reader.value
    let exported = await run(["--db", store, "export"]).outData
    #expect(received == exported)
    #expect(OutputFile.isStream(fifo))
  }

  @Test(
    "a directory at the output path is refused, with or without --force",
    arguments: [[], ["--force"]] as [[String]])
  func directoryRefused(extra: [String]) async throws {
    let store = try exampleStore(directory)
    let folder = directory.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let result = await run(["--db", store, "export", "--output", folder] + extra)
    #expect(result.status == 73)
    #expect(result.err.hasSuffix("\(folder): is a directory, not a file"))
  }

  @Test("an output larger than the background sync size arrives whole, in order, with its mode")
  func largeOutputThroughBackgroundSyncs() throws {
    let capture = Capture()
    let path = directory.path("large.jsonl")
    let sink = try OutputSink(file: path, console: capture.console, force: false, store: nil)
    var expected = Data()
    var line: [UInt8] = []
    // Three background syncs and a tail, in lines of varied lengths.
    var index = 0
    while expected.count < 3 * OutputSink.backgroundSyncSize + 12_345 {
      line = Array(
        "{\"line\":\(index),\"pad\":\"\(String(repeating: "x", count: index % 997))\"}\n".utf8)
      try sink.write(bytes: line)
      expected.append(contentsOf: line)
      index += 1
    }
    try sink.finish()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // No temporary file is left beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["large.jsonl"])
  }

  @Test("--force without --output is a usage error")
  func forceNeedsOutput() async throws {
    let store = try exampleStore(directory)
    #expect(await run(["--db", store, "export", "--force"]).status == 64)
    #expect(await run(["--db", store, "export-path", "--scene", "phone", "--force"]).status == 64)
  }

  /// A store big enough that export writes more than its 64 KiB buffer.
  func bigStore() throws -> String {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path)
      for index in 0..<1500 {
        try store.save(try stackSnapshot([.product(id: index), .settings]), scene: "s\(index)")
      }
    }
    // A read after the writer closed leaves the -shm file, so that the export below needs to grow
    // no file but its own.
    _ = try SnapshotStore(path: path, access: .readOnly).statistics()
    #expect(FileManager.default.fileExists(atPath: path + "-shm"))
    return path
  }

  @Test(
    "an export that fails or is killed while writing leaves the old file as it was, never a partial one",
    arguments: [false, true])
  func failedExport(killed: Bool) throws {
    let store = try bigStore()
    let output = directory.path("out.jsonl")
    try Data("the old export\n".utf8).write(to: URL(fileURLWithPath: output))
    // The process may write at most 40 KiB (80 blocks) to a file: its first flush fails (EFBIG), or, when the
    // signal is not ignored, SIGXFSZ kills it.
    let tool = try builtTool().path
    let script =
      (killed ? "" : "trap '' XFSZ; ")
      + "ulimit -f 80; exec \"$0\" --db \"$1\" export --output \"$2\" --force"
    let result = try runProcess(["-c", script, tool, store, output], shell: true)
    if killed {
      #expect(result.status != 0)
    } else {
      #expect(result.status == 74)
      #expect(result.err.contains("\(output): cannot write"))
      #expect(try temporaryFiles().isEmpty)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("the old export\n".utf8))
  }

  // MARK: - demo

  @Test("demo into a folder that holds another store or manifest refuses (73) and changes nothing")
  func demoOverForeignFiles() async throws {
    let folder = directory.url.appendingPathComponent("app")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try exampleStore(directory, name: "app/waypoint.sqlite")
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let refused = await run(["demo", "--output", folder.path])
    #expect(refused.status == 73)
    #expect(refused.out.isEmpty)
    #expect(
      refused.err.hasSuffix(
        "\(store): already exists and was not written by the demo; give --force to replace it"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("routes.manifest.json").path))
    // A folder given relative to the current one is named as it was given.
    let relative = try runProcess(["demo", "--output", "app"], directory: directory.url)
    #expect(relative.status == 73)
    #expect(
      relative.err
        == "waypoint demo: app/waypoint.sqlite: already exists and was not written by the demo; "
        + "give --force to replace it")

    // A manifest of another app is kept the same way.
    let other = directory.url.appendingPathComponent("other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    let manifest = other.appendingPathComponent("routes.manifest.json")
    let appManifest = RouteManifest(registry: registry).encoded()
    try appManifest.write(to: manifest)
    #expect(await run(["demo", "--output", other.path]).status == 73)
    #expect(try Data(contentsOf: manifest) == appManifest)
    #expect(
      !FileManager.default.fileExists(atPath: other.appendingPathComponent("waypoint.sqlite").path))

    // With --force both are replaced by the demo's.
    #expect(await run(["demo", "--output", folder.path, "--force"]).status == 0)
    let scenes = try SnapshotStore(path: store, access: .readOnly).scenes().map(\.id)
    #expect(scenes == ["ipad-window", "iphone-window"])
    #expect(try temporaryFiles(in: folder).isEmpty)
  }

  @Test("demo replaces what an earlier demo left, and leaves no temporary file")
  func demoTwice() async throws {
    let folder = directory.url.appendingPathComponent("demo")
    #expect(await run(["demo", "--output", folder.path]).status == 0)
    let again = await run(["demo", "--output", folder.path])
    #expect(again.status == 0)
    let store = folder.appendingPathComponent("waypoint.sqlite").path
    #expect(try SnapshotStore(path: store, access: .readOnly).statistics().snapshotCount == 3)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(files.allSatisfy { !$0.contains(".tmp-") }, "\(files)")
    let manifest = folder.appendingPathComponent("routes.manifest.json").path
    let attributes = try FileManager.default.attributesOfItem(atPath: manifest)
    // The manifest holds no personal data: 0644 less the umask, never executable.
    let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
    #expect(permissions & 0o600 == 0o600 && permissions & 0o133 == 0)
    let storeAttributes = try FileManager.default.attributesOfItem(atPath: store)
    #expect((storeAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test(
    "a demo store changed since the demo wrote it is kept (73), whatever changed it",
    arguments: ["rollback", "discard", "empty"])
  func demoOverChangedStore(change: String) async throws {
    let folder = directory.url.appendingPathComponent("changed")
    #expect(await run(["demo", "--output", folder.path]).status == 0)
    let store = folder.appendingPathComponent("waypoint.sqlite").path
    let changed: Int32
    switch change {
    case "rollback":
      let first = try #require(try SnapshotStore(path: store).history(scene: "iphone-window").last)
      changed = await run(["--db", store, "rollback", "iphone-window", "--to", "\(first.id)"])
        .status
    case "discard":
      changed = await run(["--db", store, "discard", "ipad-window"]).status
    default:
      _ = try SnapshotStore(path: store).discard(scenes: ["iphone-window", "ipad-window"])
      changed = 0
    }
    #expect(changed == 0)
    let before = try SnapshotStore(path: store, access: .readOnly).statistics().snapshotCount
    let again = await run(["demo", "--output", folder.path])
    #expect(again.status == 73, "\(again.err)")
    #expect(try SnapshotStore(path: store, access: .readOnly).statistics().snapshotCount == before)
  }

  @Test("demo --output \"\" does not write over a store in the current directory")
  func demoEmptyOutput() throws {
    let store = try exampleStore(directory, name: "waypoint.sqlite")
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let result = try runProcess(["demo", "--output", ""], directory: directory.url)
    #expect(result.status == 73)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test(
    "a journal left without its store is not read into a new store: demo and import refuse",
    arguments: ["-wal", "-shm", "-journal"])
  func strayJournal(suffix: String) async throws {
    let folder = directory.url.appendingPathComponent("stray")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let wal = folder.appendingPathComponent("waypoint.sqlite" + suffix)
    try Data("another store's journal".utf8).write(to: wal)
    #expect(await run(["demo", "--output", folder.path]).status == 73)

    let lines = await run(["--db", try exampleStore(directory), "export"]).outData
    let input = directory.path("in.jsonl")
    try lines.write(to: URL(fileURLWithPath: input))
    let store = folder.appendingPathComponent("waypoint.sqlite").path
    let imported = await run(["--db", store, "import", input])
    #expect(imported.status == 73)
    #expect(
      imported.err
        == "waypoint import: \(store)\(suffix): a store's journal is left there without its store; "
        + "move it away, or give another path for the store")
    #expect(try Data(contentsOf: wal) == Data("another store's journal".utf8))
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test(
    "an output at the name of the store's journal files is refused, even with --force",
    arguments: ["-wal", "-shm", "-journal"])
  func outputAtJournal(suffix: String) async throws {
    let store = try exampleStore(directory)
    let result = await run(["--db", store, "export", "--output", store + suffix, "--force"])
    #expect(result.status == 73)
    #expect(result.err.contains("is the store's \(suffix) file the command reads"))
    #expect(!FileManager.default.fileExists(atPath: store + suffix) || suffix != "-journal")
  }

  @Test("a file name that is not UTF-8 is refused before anything runs, never taken as another")
  func nonUTF8Path() throws {
    let store = try exampleStore(directory)
    // The name with U+FFFD, which Swift's decoding of the bytes below would give.
    let lookalike = directory.path("x\u{FFFD}.sqlite")
    try FileManager.default.copyItem(atPath: store, toPath: lookalike)
    let before = try Data(contentsOf: URL(fileURLWithPath: lookalike))
    let tool = try builtTool().path
    let result = try runProcess(
      ["-c", "exec \"$0\" --db \"$(printf 'x\\377.sqlite')\" discard ipad-window", tool],
      directory: directory.url, shell: true)
    #expect(result.status == 64)
    #expect(
      result.err == "waypoint: argument 2 is not UTF-8; the tool takes file names in UTF-8 only")
    #expect(try Data(contentsOf: URL(fileURLWithPath: lookalike)) == before)
    let environment = try runProcess(
      ["-c", "WAYPOINT_DB=\"$(printf 'x\\377.sqlite')\" exec \"$0\" scenes", tool],
      directory: directory.url, shell: true)
    #expect(environment.status == 64)
    #expect(environment.err.hasPrefix("waypoint: WAYPOINT_DB is not UTF-8"))
    // Where the variable names no store, it is not read: --db, help and --version run.
    for arguments in ["--db \"$1\" scenes", "--db=\"$1\" scenes", "--version", "help"] {
      let unused = try runProcess(
        ["-c", "WAYPOINT_DB=\"$(printf 'x\\377.sqlite')\" exec \"$0\" \(arguments)", tool, store],
        directory: directory.url, shell: true)
      #expect(unused.status == 0, "\(arguments): \(unused.err)")
    }
  }

  // MARK: - import

  @Test("import never creates a store through a symbolic link to nothing")
  func importThroughDanglingLink() async throws {
    let lines = await run(["--db", try exampleStore(directory), "export"]).outData
    let input = directory.path("in.jsonl")
    try lines.write(to: URL(fileURLWithPath: input))
    let link = directory.path("link.sqlite")
    let target = directory.path("elsewhere.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = await run(["--db", link, "import", input])
    #expect(result.status == 73)
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test("an import that fails leaves no new store behind, not even an empty one")
  func failedImportLeavesNoStore() async throws {
    let input = directory.path("in.jsonl")
    let line = String(
      decoding: await run(["--db", try exampleStore(directory), "export"]).outData, as: UTF8.self
    ).split(separator: "\n")[0]
    // A scene id the store refuses when it inserts it.
    let bad = line.replacingOccurrences(
      of: "\"scene\":\"phone\"", with: "\"scene\":\"ph\\u0001one\"")
    try Data((line + "\n" + bad + "\n").utf8).write(to: URL(fileURLWithPath: input))
    let store = directory.path("new.sqlite")
    let result = await run(["--db", store, "import", input])
    #expect(result.status == 65)
    #expect(!result.err.contains(".tmp-"))
    #expect(!FileManager.default.fileExists(atPath: store))
    #expect(try temporaryFiles().isEmpty)
  }

  @Test("import into a new store creates it whole, with permissions 0600, and names it")
  func importCreates() async throws {
    let lines = await run(["--db", try exampleStore(directory), "export"]).outData
    let input = directory.path("in.jsonl")
    try lines.write(to: URL(fileURLWithPath: input))
    let store = directory.path("new.sqlite")
    let result = await run(["--db", store, "import", input])
    #expect(result.status == 0)
    #expect(result.out.hasSuffix("into \(store) (snapshots 1–4), a new store."))
    #expect(try SnapshotStore(path: store, access: .readOnly).statistics().snapshotCount == 4)
    let attributes = try FileManager.default.attributesOfItem(atPath: store)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try temporaryFiles().isEmpty)
  }

  // MARK: - the rule itself

  @Test(
    "the rule tells the store's files by device and inode, however they are named",
    arguments: Spelling.allCases)
  func sameFile(spelling: Spelling) throws {
    let store = try exampleStore(directory)
    #expect(OutputFile.sameFile(try spell(store, spelling), asStore: store) != nil)
  }

  @Test("the rule tells a copy of the store and other files from the store's own")
  func otherFiles() throws {
    let store = try exampleStore(directory)
    let copy = directory.path("copy.sqlite")
    try FileManager.default.copyItem(atPath: store, toPath: copy)
    #expect(OutputFile.sameFile(copy, asStore: store) == nil)
    #expect(OutputFile.sameFile(directory.path("store.sqlite-old"), asStore: store) == nil)
    #expect(OutputFile.sameFile(store + "-journal", asStore: store) == "the store's -journal file")
  }

  @Test("without --force, a file that appears while the command writes is kept")
  func appearedMeanwhile() throws {
    let path = directory.path("out.txt")
    let (temporary, descriptor) = try OutputFile.temporary(beside: path, mode: 0o600)
    close(descriptor)
    try Data("someone else's".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: CLIError.self) {
      try OutputFile.place(temporary, at: path, replacing: false)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("someone else's".utf8))
    #expect(!FileManager.default.fileExists(atPath: temporary))
  }
}
