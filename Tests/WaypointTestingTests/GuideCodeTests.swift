import Foundation
import Testing
import Waypoint
import WaypointTesting

/// Docs/Testing.md's code is GuideTests.swift's code, and its failure example is the kit's output.
@Suite("Docs/Testing.md")
struct GuideCodeTests {
  static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let root = testsFolder.deletingLastPathComponent().deletingLastPathComponent()

  /// The fenced blocks of `markdown` whose info string is exactly `info`.
  static func blocks(_ markdown: String, info: String) -> [String] {
    var blocks: [String] = []
    var current: [String]?
    for line in markdown.components(separatedBy: "\n") {
      if current == nil, line == "```" + info {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current?.joined(separator: "\n") ?? "")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The blocks of `markdown` that do not appear verbatim in `source`.
  static func missing(_ markdown: String, in source: String) -> [String] {
    blocks(markdown, info: "swift").filter { !source.contains($0) }
  }

  @Test("every swift block of the guide is code that GuideTests.swift runs")
  func blocksAreRun() throws {
    let guide = try String(
      contentsOf: Self.root.appendingPathComponent("Docs/Testing.md"), encoding: .utf8)
    let source = try String(
      contentsOf: Self.testsFolder.appendingPathComponent("GuideTests.swift"), encoding: .utf8)
    #expect(Self.blocks(guide, info: "swift").count == 7)
    #expect(Self.missing(guide, in: source) == [])
  }

  @Test("the check finds a block that is not in the file")
  func checkCanFail() {
    let markdown = "text\n```swift\nlet a = 1\n```\n```swift manifest\nnot checked\n```\n"
    #expect(Self.missing(markdown, in: "let a = 2") == ["let a = 1"])
    #expect(Self.missing(markdown, in: "x\nlet a = 1\ny") == [])
  }

  /// 1.1 of the guide's shop: `settings` removed, with no migration.
  enum ShopRouteWithoutSettings: Codable, Hashable, Sendable {
    case category(name: String)
    case product(id: Int)
    case order(id: Int)
  }

  @Test("the guide's failure example is what the kit prints when 1.1 removes a case")
  func failureExample() throws {
    let guide = try String(
      contentsOf: Self.root.appendingPathComponent("Docs/Testing.md"), encoding: .utf8)
    let example = try #require(Self.blocks(guide, info: "text").first)
    let registry = RouteRegistry(schemaVersion: 1)
      .registering(ShopTab.self, examples: [.shop, .orders, .account])
      .registering(ShopRouteWithoutSettings.self, tag: _typeName(ShopRoute.self, qualified: true))
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: fixturesFolder, with: Restorer(registry: registry), recordingExpectations: false)
    }
    let phone = try #require(
      failure?.message.components(separatedBy: "\n\n").first {
        $0.hasPrefix("release 1.0, scene phone")
      })
    let lines = phone.components(separatedBy: "\n")
    let expected = example.components(separatedBy: "\n")
    try #require(lines.count == expected.count)
    for (line, pattern) in zip(lines, expected) {
      // "…" in the guide stands for the rest of the line, or a path's start.
      let parts = pattern.components(separatedBy: "…")
      #expect(
        line.hasPrefix(parts[0]) && line.hasSuffix(parts.count > 1 ? parts[parts.count - 1] : ""),
        "\(line) does not match \(pattern)")
    }
  }
}
