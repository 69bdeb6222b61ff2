import Foundation
import Testing

@testable import WaypointCLI

/// The example sessions of README.md and Docs/CLI.md, run with the built tool and compared with what
/// they show, so that the docs cannot drift from the program.
///
/// A session is a fenced block right after a `<!-- session: fresh -->` or
/// `<!-- session: after demo -->` comment. Each `$ ` line is a command run by `bash` in a new folder
/// (after `waypoint demo` for the second kind), with `swift run waypoint` meaning the built tool; the
/// lines up to the next command are its expected stdout and stderr. Times are compared as `<time>`
/// and the folder is shown as `/tmp/session`. A command shown without output must exit 0 or 1.
///
/// After a reviewed change of what the tool prints, `WAYPOINT_RECORD_SESSIONS=1 swift test --filter
/// DocSessionTests` writes the new outputs into the docs; review the diff.
@Suite("the documented example sessions")
struct DocSessionTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test(
    "each documented session prints what the docs show", arguments: ["README.md", "Docs/CLI.md"])
  func sessionsMatch(file: String) throws {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
    let sessions = Session.parse(text)
    #expect(!sessions.isEmpty, "\(file) has no tested session")
    if ProcessInfo.processInfo.environment["WAYPOINT_RECORD_SESSIONS"] == "1" {
      var lines = text.components(separatedBy: "\n")
      for session in sessions.reversed() {
        let results = try session.run()
        for (command, actual) in zip(session.commands, results).reversed()
        where command.output != nil {
          var shown = actual.output.components(separatedBy: "\n")
          while shown.last?.isEmpty == true { shown.removeLast() }
          lines.replaceSubrange(command.outputLines, with: shown)
        }
      }
      try lines.joined(separator: "\n").write(
        to: Self.root.appendingPathComponent(file), atomically: true, encoding: .utf8)
      return
    }
    for session in sessions {
      let results = try session.run()
      for (command, actual) in zip(session.commands, results) {
        if let expected = command.output {
          #expect(
            Session.normalized(actual.output) == Session.normalized(expected),
            "\(file), line \(command.line): $ \(command.text)")
        } else {
          #expect(
            actual.status == 0 || actual.status == 1,
            "\(file), line \(command.line): $ \(command.text) exited \(actual.status): \(actual.output)"
          )
        }
      }
    }
  }

  @Test("the session reader finds commands and outputs, and a wrong output would fail")
  func readerCanFail() throws {
    let sessions = Session.parse(
      """
      <!-- session: fresh -->
      ```
      $ echo one
      one
      $ printf 'at 2026-01-02T03:04:05Z in %s\\n' "$PWD"
      at 2030-12-31T23:59:59Z in /tmp/session
      $ echo two
      three
      $ true  # shown without output
      ```
      """)
    let session = try #require(sessions.first)
    #expect(
      session.commands.map(\.text) == [
        "echo one", "printf 'at 2026-01-02T03:04:05Z in %s\\n' \"$PWD\"", "echo two",
        "true  # shown without output",
      ])
    let results = try session.run()
    #expect(results.map(\.status) == [0, 0, 0, 0])
    let matches = zip(session.commands, results).map { command, result in
      Session.normalized(result.output) == Session.normalized(command.output ?? "")
    }
    #expect(matches == [true, true, false, true])
  }
}

/// One documented session: its setup and its commands.
struct Session {
  struct Command {
    var text: String
    var line: Int
    /// What the docs show, or `nil` when they show nothing.
    var output: String?
    /// Where the docs show it: indexes of the file's lines.
    var outputLines: Range<Int> = 0..<0
  }

  struct Result {
    var status: Int32
    var output: String
  }

  var afterDemo: Bool
  var commands: [Command]

  static func parse(_ markdown: String) -> [Session] {
    let lines = markdown.components(separatedBy: "\n")
    var sessions: [Session] = []
    var index = 0
    while index < lines.count {
      let marker = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      guard marker.hasPrefix("<!-- session:"), index < lines.count,
        lines[index].hasPrefix("```")
      else { continue }
      index += 1
      var session = Session(afterDemo: marker.contains("after demo"), commands: [])
      var output: [String] = []
      func finish() {
        guard !session.commands.isEmpty else { return }
        let last = session.commands.count - 1
        session.commands[last].output = output.isEmpty ? nil : output.joined(separator: "\n")
        session.commands[last].outputLines = (index - output.count)..<index
        output = []
      }
      while index < lines.count, !lines[index].hasPrefix("```") {
        let line = lines[index]
        if line.hasPrefix("$ ") {
          finish()
          session.commands.append(Command(text: String(line.dropFirst(2)), line: index + 1))
        } else if !session.commands.isEmpty {
          output.append(line)
        }
        index += 1
      }
      finish()
      sessions.append(session)
    }
    return sessions
  }

  /// Times as `<time>`, trailing blanks and blank last lines dropped.
  static func normalized(_ text: String) -> String {
    let time = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/
    var lines = text.replacing(time, with: "<time>").components(separatedBy: "\n").map {
      String($0.reversed().drop(while: { $0 == " " }).reversed())
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  /// Runs the commands in one `bash` in a new folder, each with stderr merged into stdout.
  func run() throws -> [Result] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tool = try builtTool()
    let marker = "@@waypoint-session@@"
    var script = "cd \"$1\"\n"
    if afterDemo { script += "waypoint demo >/dev/null 2>&1 || exit 99\n" }
    for command in commands {
      let text = command.text.replacingOccurrences(of: "swift run waypoint", with: "waypoint")
      script += "printf '\\n\(marker)\\n'\n{ \(text)\n} 2>&1\nprintf '\\n\(marker) %d\\n' $?\n"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script, "session", folder.path]
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = tool.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    environment["NO_COLOR"] = "1"
    environment["WAYPOINT_DB"] = nil
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let shown = String(decoding: data, as: UTF8.self)
      .replacingOccurrences(of: folder.path, with: "/tmp/session")
    // Each command's output sits between "\n<marker>\n" and "\n<marker> <status>\n".
    var results: [Result] = []
    for chunk in shown.components(separatedBy: "\n\(marker)\n").dropFirst() {
      guard let end = chunk.range(of: "\n\(marker) ", options: .backwards) else { continue }
      let status = Int32(chunk[end.upperBound...].prefix { $0.isNumber }) ?? -1
      results.append(Result(status: status, output: String(chunk[..<end.lowerBound])))
    }
    guard results.count == commands.count else {
      throw SessionFailed(output: shown)
    }
    return results
  }
}

struct SessionFailed: Error, CustomStringConvertible {
  var output: String
  var description: String { "the session did not run to its end:\n\(output)" }
}

@Suite("the CLI reference agrees with the tool")
struct CLIReferenceTests {
  @Test("Docs/CLI.md's exit statuses are the ones --help prints, word for word")
  func exitStatuses() throws {
    let text = try String(
      contentsOf: DocSessionTests.root.appendingPathComponent("Docs/CLI.md"), encoding: .utf8)
    let section = try #require(
      text.components(separatedBy: "## Exit statuses").dropFirst().first?
        .components(separatedBy: "\n## ").first)
    let rows = section.components(separatedBy: "\n").compactMap { line -> (Int32, String)? in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 2, let status = Int32(cells[0]) else { return nil }
      return (status, cells[1].replacingOccurrences(of: "`", with: ""))
    }
    #expect(rows.map(\.0) == ExitCode.meanings.map(\.0.rawValue))
    #expect(rows.map(\.1) == ExitCode.meanings.map(\.1))
  }

  @Test(
    "the bad-file table's messages are what the tool prints",
    arguments: [
      (Data("just some text\n".utf8), "corrupt store: file is not a database"),
      (Data("SQLite format 3\0".utf8), "corrupt store: file is not a database"),
    ])
  func badFileMessages(contents: Data, message: String) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try contents.write(to: URL(fileURLWithPath: path))
    let result = await run(["--db", path, "scenes"])
    #expect(result.status == 65)
    #expect(result.err.hasPrefix("waypoint scenes: \(path): \(message)"), "\(result.err)")
    let doc = try String(
      contentsOf: DocSessionTests.root.appendingPathComponent("Docs/CLI.md"), encoding: .utf8)
    #expect(doc.contains("`PATH: \(message)"))
  }

  @Test(
    "a store cut inside its header says so, and that nothing in it can be read, as the table says")
  func cutHeader() async throws {
    let directory = TemporaryDirectory()
    let path = try exampleStore(directory)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try bytes.prefix(60).write(to: URL(fileURLWithPath: path))
    let result = await run(["--db", path, "scenes"])
    #expect(result.status == 65)
    let cause = "the file is 60 bytes long, cut inside its 100-byte header"
    #expect(
      result.err
        == "waypoint scenes: \(path): corrupt store: \(cause); nothing in it can be read")
    let doc = try String(
      contentsOf: DocSessionTests.root.appendingPathComponent("Docs/CLI.md"), encoding: .utf8)
    #expect(doc.contains("`the file is 50 bytes long, cut inside its 100-byte header`"))
    #expect(doc.contains("its header counts 8 pages of 4096 bytes; nothing in it can be read`"))
  }
}
