import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// `waypoint outcomes summarize`: the tally per build, tag and reason, its order of builds, bad
/// lines, bounds and exit statuses.
@Suite("waypoint outcomes summarize")
struct OutcomesCommandTests {
  /// A record of `build` with `outcome`, dropping `drops` (tag, reason, count).
  static func record(
    _ build: String?, _ outcome: RestoreReport.Outcome,
    _ drops: [(String?, String, Int)] = [], migrated: Bool = false
  ) -> String {
    var items = drops.map {
      RestoreOutcome.Item(kind: .dropped, location: .stack, tag: $0.0, reason: $0.1, count: $0.2)
    }
    if migrated {
      items.append(
        RestoreOutcome.Item(
          kind: .migrated, location: .sheet, tag: "Promo", fromVersion: 1, toVersion: 2))
    }
    let outcome = RestoreOutcome(
      appBuild: build, routeSchemaVersion: 2, storedRouteSchemaVersion: 1, outcome: outcome,
      snapshotAgeHours: 3, durationMicroseconds: 120, crashLoop: .none, items: items)
    return String(decoding: outcome.jsonLine, as: UTF8.self)
  }

  /// Two builds: 1.0 drops Shop.Route in 1 of 4 restores, 2.0 in 2 of 4, and one root.
  static let fleet =
    [
      record(
        "2.0 (200)", .partial, [("Shop.Route", "removedCase", 2), ("Shop.Route", "removedCase", 1)]),
      record("1.0 (100)", .restored),
      record("1.0 (100)", .partial, [("Shop.Route", "removedCase", 1)], migrated: true),
      record(
        "2.0 (200)", .root, [("Shop.Route", "removedCase", 1), (nil, "unreadableSnapshot", 1)]),
      record("1.0 (100)", .restored),
      record("2.0 (200)", .restored, migrated: true),
      record("1.0 (100)", .restored),
      record("2.0 (200)", .restored),
    ].joined(separator: "\n") + "\n"

  func write(_ text: String, _ name: String = "fleet.jsonl", in directory: TemporaryDirectory)
    -> String
  {
    let path = directory.url.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  @Test("the text summary: builds in order, shares and changes in points")
  func text() async {
    let directory = TemporaryDirectory()
    let path = write(Self.fleet, in: directory)
    let result = await run(["outcomes", "summarize", path])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.err.isEmpty)
    #expect(
      result.out == """
        8 records of 2 builds from \(path).

        BUILD      RESTORES  PARTIAL  CHANGE  ROOT    CHANGE
        1.0 (100)  4         25.00%   -       0.00%   -
        2.0 (200)  4         25.00%   +0.00   25.00%  +25.00

        BUILD      TAG         REASON              RESTORES  ROUTES  SHARE   CHANGE
        1.0 (100)  Shop.Route  removedCase         1         1       25.00%  -
        2.0 (200)  Shop.Route  removedCase         2         4       50.00%  +25.00
        2.0 (200)  -           unreadableSnapshot  1         1       25.00%  +25.00
        """)
  }

  @Test("--json: the documented shape, from stdin")
  func json() async throws {
    let result = await run(
      ["outcomes", "summarize", "--json", "-"], input: Data(Self.fleet.utf8))
    #expect(result.status == 0)
    let document = try result.json()
    #expect(document["files"] as? [String] == ["stdin"])
    #expect(document["records"] as? Int == 8)
    #expect(document["badLines"] as? Int == 0)
    let builds = try #require(document["builds"] as? [[String: Any]])
    #expect(builds.map { $0["build"] as? String } == ["1.0 (100)", "2.0 (200)"])
    #expect(builds[1]["rootShare"] as? Double == 0.25)
    #expect(builds[1]["rootChange"] as? Double == 0.25)
    #expect(builds[0]["rootChange"] is NSNull)
    let drops = try #require(builds[1]["drops"] as? [[String: Any]])
    #expect(drops.count == 2)
    #expect(drops[0]["tag"] as? String == "Shop.Route")
    #expect(drops[0]["restores"] as? Int == 2)
    #expect(drops[0]["routes"] as? Int == 4)
    #expect(drops[0]["share"] as? Double == 0.5)
    #expect(drops[0]["change"] as? Double == 0.25)
    #expect(drops[1]["tag"] is NSNull)
    #expect(builds[1]["other"] is NSNull)
    #expect((document["failures"] as? [Any])?.isEmpty == true)
  }

  @Test("--fail-above: exit 1 naming what is over, 0 when nothing is")
  func failAbove() async throws {
    let directory = TemporaryDirectory()
    let path = write(Self.fleet, in: directory)
    let over = await run(["outcomes", "summarize", "--fail-above", "30%", path])
    #expect(over.status == 1)
    #expect(
      over.out.hasSuffix(
        "Over --fail-above 30.00%:\n  build 2.0 (200): Shop.Route removedCase 50.00%"))
    let under = await run(["outcomes", "summarize", "--fail-above", "50", path])
    #expect(under.status == 0)
    #expect(under.out.hasSuffix("Nothing over --fail-above 50.00%."))
    let json = await run(["outcomes", "summarize", "--json", "--fail-above", "0.5", path])
    #expect(json.status == 1)
    let failures = try #require(try json.json()["failures"] as? [[String: Any]])
    #expect(failures.map { $0["kind"] as? String } == ["drop", "root", "drop", "drop"])
    for bad in ["-1", "101", "1%%", "nan", "1e2", ""] {
      let refused = await run(["outcomes", "summarize", "--fail-above", bad, path])
      #expect(refused.status == 64, "\(bad)")
    }
  }

  @Test("bad lines are counted and the first 20 named with file and line; a 1 MB line is skipped")
  func badLines() async throws {
    let directory = TemporaryDirectory()
    var lines = [Self.record("1.0", .restored)]
    lines += (0..<25).map { "not json \($0)" }
    lines.append(String(repeating: "x", count: 1 << 20))
    lines.append(#"{"format":2,"appBuild":"9.0"}"#)
    lines.append(
      Self.record("1.0", .partial, [("A", "unknownTag", 1)]).replacingOccurrences(
        of: "\"count\"", with: "\"c\""))
    lines.append("")
    lines.append(
      Self.record("1.0", .partial, [("A", "unknownTag", 1)]).replacingOccurrences(
        of: "\"count\":1", with: "\"count\":-5"))
    lines.append(Self.record("1.0", .restored))
    let path = write(lines.joined(separator: "\r\n"), in: directory)
    let result = await run(["outcomes", "summarize", "--json", path])
    #expect(result.status == 0)
    let document = try result.json()
    #expect(document["records"] as? Int == 2)
    #expect(document["badLines"] as? Int == 29)
    let named = try #require(document["firstBadLines"] as? [[String: Any]])
    #expect(named.count == 20)
    #expect(named.first?["line"] as? Int == 2)
    #expect(named.first?["code"] as? String == "notJSON")
    let errors = result.err.components(separatedBy: "\n")
    #expect(errors.count == 21)
    #expect(errors.first?.hasPrefix("waypoint outcomes: \(path):2: malformed JSON") == true)
    #expect(errors.last == "waypoint outcomes: 9 more bad lines not named")

    // The tail of the same lines alone: every code, with its line number.
    let tail = write(lines.suffix(6).joined(separator: "\n"), "tail.jsonl", in: directory)
    let rest = await run(["outcomes", "summarize", "--json", tail])
    let codes = try #require(try rest.json()["firstBadLines"] as? [[String: Any]]).map {
      "\($0["line"] as? Int ?? 0) \($0["code"] as? String ?? "")"
    }
    #expect(codes == ["1 tooLarge", "2 newerFormat", "3 missingField", "5 invalidValue"])
  }

  @Test("no record at all exits 65; a missing file 66, before anything is read")
  func noRecords() async {
    let directory = TemporaryDirectory()
    let empty = write("", "empty.jsonl", in: directory)
    let bad = write("nope\n{}\n", "bad.jsonl", in: directory)
    let good = write(Self.fleet, in: directory)
    let none = await run(["outcomes", "summarize", empty])
    #expect(none.status == 65)
    #expect(none.err == "waypoint outcomes: \(empty): no readable record")
    let badOnly = await run(["outcomes", "summarize", bad, empty])
    #expect(badOnly.status == 65)
    #expect(badOnly.err.hasSuffix("waypoint outcomes: 2 files: no readable record (2 bad lines)"))
    let missing = await run(["outcomes", "summarize", good, directory.url.path + "/nothing.jsonl"])
    #expect(missing.status == 66)
    #expect(missing.out.isEmpty)
  }

  @Test(
    "usage: the action, the files, stdin once",
    arguments: [
      ["outcomes", "summarise", "x"], ["outcomes", "summarize"], ["outcomes", "--fail-above", "1"],
      ["outcomes", "summarize", "-", "-"],
    ])
  func usage(arguments: [String]) async {
    let result = await run(arguments)
    #expect(result.status == 64, "\(result.err)")
    #expect(!result.err.isEmpty)
  }

  @Test("several files are read in turn, and summed")
  func severalFiles() async throws {
    let directory = TemporaryDirectory()
    let one = write(Self.fleet, "one.jsonl", in: directory)
    let two = write(Self.fleet, "two.jsonl", in: directory)
    let result = await run(["outcomes", "summarize", "--json", one, two])
    #expect(try result.json()["records"] as? Int == 16)
  }

  @Test("builds are ordered by their numbers, a record without a build first")
  func buildOrder() {
    let builds: [String?] = [
      "10.0 (1000)", "2.0.1 (201)", "2.0 (200)", nil, "2.0 (0200)", "beta", "2", "1.9 (199)",
      "3.0 (300)", "3.1 (310)", "99999999999999999999999 (1)", "1.2.", "v1.2..3",
    ]
    let sorted = builds.sorted { OutcomeSummary.precedes($0, $1) }
    #expect(
      sorted == [
        nil, "beta", "1.2.", "v1.2..3", "1.9 (199)", "2", "2.0 (0200)", "2.0 (200)", "2.0.1 (201)",
        "3.0 (300)", "3.1 (310)", "10.0 (1000)", "99999999999999999999999 (1)",
      ])
  }

  @Test("a million distinct tags are folded into one row per build, in bounded memory")
  func manyTags() async throws {
    var summary = OutcomeSummary()
    for index in 0..<200_000 {
      summary.add(
        RestoreOutcome(
          appBuild: "build \(index % 600)", routeSchemaVersion: 1, storedRouteSchemaVersion: 1,
          outcome: .partial, snapshotAgeHours: 1, durationMicroseconds: 1, crashLoop: .none,
          items: [
            RestoreOutcome.Item(kind: .dropped, location: .stack, tag: "T\(index)", reason: "x")
          ]))
    }
    #expect(summary.builds.count == OutcomeSummary.maxBuilds + 1)
    #expect(summary.builds.map(\.pairs.count).reduce(0, +) <= OutcomeSummary.maxPairs)
    #expect(summary.builds.allSatisfy { $0.pairs.count <= OutcomeSummary.maxPairsPerBuild })
    let folded = try #require(summary.builds.last)
    #expect(folded.isFolded)
    // The builds met after the first maxBuilds are folded.
    #expect(folded.restores == (0..<200_000).filter { $0 % 600 >= OutcomeSummary.maxBuilds }.count)
    #expect(summary.builds.reduce(0) { $0 + $1.restores } == 200_000)
    #expect(
      summary.builds.allSatisfy {
        $0.otherRestores + $0.pairs.map(\.restores).reduce(0, +) == $0.restores
      })

    // Through the tool: one build, more pairs than it keeps apart.
    let lines = (0..<(OutcomeSummary.maxPairsPerBuild + 10)).map {
      Self.record("1.0", .partial, [("T\($0)", "removedCase", 1)])
    }
    let input = Data((lines.joined(separator: "\n")).utf8)
    let json = await run(["outcomes", "summarize", "--json", "-"], input: input)
    #expect(json.status == 0)
    let build = try #require((try json.json()["builds"] as? [[String: Any]])?.first)
    #expect((build["drops"] as? [Any])?.count == OutcomeSummary.maxPairsPerBuild)
    let other = try #require(build["other"] as? [String: Any])
    #expect(other["restores"] as? Int == 10)
    let text = await run(["outcomes", "summarize", "-"], input: input)
    #expect(
      text.out.contains("(other): the (tag, reason) pairs of a build met after its first 1000"))
  }

  @Test(
    "lines across chunk boundaries, long lines skipped in a small buffer", arguments: [1, 3, 7, 64])
  func recordLines(chunk: Int) throws {
    let text =
      "ab\r\n\n" + String(repeating: "x", count: 50) + "\ncd\n" + String(repeating: "y", count: 40)
    let directory = TemporaryDirectory()
    let path = write(text, "lines.txt", in: directory)
    let handle = try #require(FileHandle(forReadingAtPath: path))
    defer { try? handle.close() }
    var lines = LineReader(.file(handle), maxLineBytes: 10, chunkBytes: chunk)
    var seen: [String] = []
    while let line = try lines.nextLine() {
      switch line {
      case .line(let number, let range):
        seen.append(
          "\(number):" + lines.withBytes(of: range) { String(decoding: $0, as: UTF8.self) })
      case .tooLong(let number, let bytes):
        seen.append("\(number): \(bytes) bytes")
      }
    }
    #expect(seen == ["1:ab", "2:", "3: 50 bytes", "4:cd", "5: 40 bytes"])
  }
}

/// `waypoint outcomes` without an action: the records a store keeps.
@Suite("waypoint outcomes: the records a store keeps")
struct OutcomesListTests {
  static func outcome(_ build: String, _ outcome: RestoreReport.Outcome) -> RestoreOutcome {
    RestoreOutcome(
      appBuild: build, routeSchemaVersion: 3, storedRouteSchemaVersion: 1, outcome: outcome,
      snapshotAgeHours: 26, durationMicroseconds: 180, crashLoop: .none,
      items: outcome == .restored
        ? []
        : [
          RestoreOutcome.Item(
            kind: .dropped, location: .stack, tag: "Shop.Route", reason: "removedCase", count: 2),
          RestoreOutcome.Item(
            kind: .migrated, location: .stack, tag: "Shop.Route", fromVersion: 1, toVersion: 3),
        ])
  }

  /// A store keeping two records (and, with `planted`, a row that is not one).
  func store(planted: Bool = false, in directory: TemporaryDirectory) throws -> String {
    let path = directory.url.appendingPathComponent("kept.sqlite").path
    let store = try SnapshotStore(path: path)
    try store.recordOutcome(
      Self.outcome("3.0 (300)", .partial), at: Date(timeIntervalSince1970: 1_800_000_000))
    try store.recordOutcome(
      Self.outcome("3.0 (300)", .restored), at: Date(timeIntervalSince1970: 1_800_003_600))
    if planted {
      try store.withDatabase { db throws(SQLiteError) in
        _ = try db.run(
          "INSERT INTO restore_outcome (recorded_at, record) VALUES (0, ?)",
          [.blob(Data("{\"format\":99}".utf8))])
      }
    }
    return path
  }

  @Test("a table of the kept records, oldest first")
  func table() async throws {
    let directory = TemporaryDirectory()
    let path = try store(in: directory)
    let result = await run(["--db", path, "outcomes"])
    #expect(result.status == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines.first?.hasPrefix("RECORD") == true)
    #expect(lines[1].contains("partial"))
    #expect(lines[1].contains("2 dropped Shop.Route (removedCase), 1 migrated Shop.Route 1→3"))
    #expect(lines[1].contains("26 h"))
    #expect(lines[2].contains("restored"))
  }

  @Test("--json gives the records as kept, which summarize reads")
  func json() async throws {
    let directory = TemporaryDirectory()
    let path = try store(in: directory)
    let result = await run(["--db", path, "outcomes", "--json"])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out.split(separator: "\n").map(String.init)
        == [Self.outcome("3.0 (300)", .partial), Self.outcome("3.0 (300)", .restored)]
        .map { String(decoding: $0.jsonLine, as: UTF8.self) })
    let summary = await run(["outcomes", "summarize", "-"], input: Data(result.out.utf8))
    #expect(summary.status == 0, "\(summary.err)")
    #expect(summary.out.contains("3.0 (300)"))
  }

  @Test("a kept row that is not a record is named, and the command exits 1")
  func planted() async throws {
    let directory = TemporaryDirectory()
    let path = try store(planted: true, in: directory)
    for arguments in [["--db", path, "outcomes"], ["--db", path, "outcomes", "--json"]] {
      let result = await run(arguments)
      #expect(result.status == 1)
      #expect(result.err.hasPrefix("waypoint outcomes: record 3: not a record: "), "\(result.err)")
    }
  }

  @Test("a store of schema 6 read as it is has no records; files are for summarize")
  func olderStoreAndUsage() async throws {
    let directory = TemporaryDirectory()
    let path = directory.url.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(
      atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../WaypointSQLiteTests/Fixtures/schema-6.sqlite").path,
      toPath: path)
    let result = await run(["--db", path, "outcomes"])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.isEmpty)
    #expect(result.err.contains("no restore outcomes in"))
    let usage = await run(["--db", path, "outcomes", "x.jsonl"])
    #expect(usage.status == 64)
  }
}
