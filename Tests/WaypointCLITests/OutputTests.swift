import Foundation
import Testing

@testable import WaypointCLI

@Suite("text output: colours, progress, tables, trees, printable text")
struct OutputTests {
  func console(out: Bool, err: Bool = false, environment: [String: String] = [:]) -> Capture {
    let capture = Capture()
    capture.outIsTerminal = out
    capture.errIsTerminal = err
    capture.environment = environment
    return capture
  }

  @Test(
    "colours only on a terminal, without a non-empty NO_COLOR, and not for TERM=dumb",
    arguments: [
      (true, [:], true), (false, [:], false), (true, ["NO_COLOR": "1"], false),
      (true, ["NO_COLOR": ""], true), (true, ["TERM": "dumb"], false),
    ] as [(Bool, [String: String], Bool)])
  func colours(terminal: Bool, environment: [String: String], enabled: Bool) {
    let style = Style(for: console(out: terminal, environment: environment).console)
    #expect(style.isEnabled == enabled)
    #expect(style.red("x") == (enabled ? "\u{1B}[31mx\u{1B}[0m" : "x"))
  }

  @Test("the scenes table is bold-headed on a terminal")
  func colouredTable() async throws {
    let directory = TemporaryDirectory()
    let path = try exampleStore(directory)
    let capture = console(out: true)
    #expect(await WaypointTool.run(["--db", path, "scenes"], console: capture.console) == 0)
    #expect(capture.out.hasPrefix("\u{1B}[1mSCENE"))
    #expect(capture.out.contains("\u{1B}[33m1 snapshot, 1 quarantined\u{1B}[0m"))
  }

  @Test(
    "progress appears after a second, only on a terminal, at most ten times a second, and is erased"
  )
  func progress() {
    var now = Duration.zero
    let terminal = console(out: false, err: true)
    let progress = Progress(console: terminal.console, label: "exporting", elapsed: { now })
    progress.update(1)
    #expect(terminal.err.isEmpty)
    now = .milliseconds(1_001)
    progress.update(2)
    now = .milliseconds(1_050)
    progress.update(3)
    now = .milliseconds(1_200)
    progress.update(4)
    progress.finish()
    #expect(terminal.err == "\r\u{1B}[Kexporting: 2\r\u{1B}[Kexporting: 4\r\u{1B}[K")
    let pipe = console(out: false, err: false)
    let quiet = Progress(console: pipe.console, label: "x", elapsed: { .seconds(5) })
    quiet.update(1)
    quiet.finish()
    #expect(pipe.err.isEmpty)
  }

  @Test("tables align columns and do not pad the last one")
  func table() {
    var table = TextTable(header: ["A", "LONGER", "C"])
    table.rows = [
      [.init("wide cell"), .init("x"), .init("")], [.init("y"), .init("z"), .init("last")],
    ]
    #expect(
      table.render(Style(isEnabled: false)) == [
        "A          LONGER  C", "wide cell  x", "y          z       last",
      ])
  }

  @Test("trees draw their branches")
  func tree() {
    let tree = TreeNode("root", [TreeNode("a", [TreeNode("a1"), TreeNode("a2")]), TreeNode("b")])
    #expect(tree.render() == ["root", "├── a", "│   ├── a1", "│   └── a2", "└── b"])
  }

  @Test("text from a store cannot drive the terminal")
  func printable() {
    #expect(Formatting.printable("a\u{1B}[31mb\nc\u{202E}d🎈") == "a\\u{1B}[31mb\\nc\\u{202E}d🎈")
    #expect(Formatting.printable("plain é") == "plain é")
  }

  @Test("sizes, counts and dates read the same everywhere")
  func formatting() {
    #expect(Formatting.bytes(812) == "812 B")
    #expect(Formatting.bytes(3_277) == "3.2 KiB")
    #expect(Formatting.bytes(5 << 20) == "5.0 MiB")
    #expect(Formatting.count(1, "snapshot") == "1 snapshot")
    #expect(Formatting.count(2, "snapshot") == "2 snapshots")
    #expect(Formatting.date(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
    #expect(
      Formatting.parseDate("2026-11-18T11:06:40Z") == Date(timeIntervalSince1970: 1_795_000_000))
  }
}
