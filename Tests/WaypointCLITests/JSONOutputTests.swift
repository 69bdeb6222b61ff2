import Foundation
import Testing

@testable import WaypointCLI

@Suite("--json: exactly one JSON document on stdout, for every command that reports")
struct JSONOutputTests {
  static let commands: [[String]] = [
    ["scenes"], ["show", "tablet"], ["history", "phone"], ["check"], ["check", "--full"],
    ["rollback", "phone", "--to", "1"], ["discard", "phone"], ["prune", "--keep", "1"],
    ["export", "--output", "OUT"], ["import", "LINES"], ["import-path", "--scene", "x", "-"],
    ["export-path", "--scene", "phone"], ["stats"], ["demo", "--output", "DEMO"],
  ]

  @Test("stdout parses as one JSON value, with nothing before or after it", arguments: commands)
  func oneDocument(arguments: [String]) throws {
    let directory = TemporaryDirectory()
    let store = try exampleStore(directory)
    let lines = directory.path("lines.jsonl")
    #expect(run(["--db", store, "export", "--output", lines]).status == 0)
    let replaced = arguments.map {
      ["OUT": directory.path("out.jsonl"), "LINES": lines, "DEMO": directory.path("demo")][$0] ?? $0
    }
    let global = arguments[0] == "demo" ? [] : ["--db", store]
    let result = run(global + ["--json"] + replaced, input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect([0, 1].contains(result.status), "\(arguments): \(result.err)")
    let value = try JSONSerialization.jsonObject(with: result.outData)
    #expect(value is [String: Any] || value is [Any])
    #expect(result.outData.last == 0x0A || arguments[0] == "export-path")
  }
}
