import Foundation
import Testing
import Waypoint
import WaypointManifest

/// `RestoreOutcome(jsonLine:)`, the one reader of outcome records: what `jsonLine` writes reads
/// back equal, and each kind of bad line is refused with its code.
@Suite("reading restore outcome records")
struct RestoreOutcomeReadingTests {
  /// A record with every field drawn from `generator`, within the format's bounds.
  static func outcome(_ generator: inout SplitMix64) -> RestoreOutcome {
    func name(_ generator: inout SplitMix64) -> String? {
      let names = [
        "Shop.Route", "Café.Route", "Quote\"Route", "tab\tname", "\u{1F388}", "", "a\\b",
        String(repeating: "x", count: RestoreOutcome.maxNameBytes),
      ]
      return Bool.random(using: &generator) ? names.randomElement(using: &generator) : nil
    }
    func number(_ generator: inout SplitMix64, _ range: ClosedRange<Int>) -> Int {
      [range.lowerBound, range.upperBound, Int.random(in: range, using: &generator)]
        .randomElement(using: &generator) ?? range.lowerBound
    }
    let items = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
      RestoreOutcome.Item(
        kind: RestoreOutcome.Item.Kind.allCases.randomElement(using: &generator) ?? .dropped,
        location: RestoreOutcome.LocationKind.allCases.randomElement(using: &generator) ?? .stack,
        stack: name(&generator), tag: name(&generator), fromTag: name(&generator),
        reason: name(&generator),
        fromVersion: Bool.random(using: &generator) ? number(&generator, 0...40) : nil,
        toVersion: Bool.random(using: &generator)
          ? number(&generator, 0...RestoreOutcome.maxCount)
          : nil,
        count: number(&generator, 1...RestoreOutcome.maxCount))
    }
    return RestoreOutcome(
      appBuild: name(&generator),
      routeSchemaVersion: number(&generator, 0...RestoreOutcome.maxCount),
      storedRouteSchemaVersion: Bool.random(using: &generator) ? number(&generator, 0...9) : nil,
      outcome: [.restored, .partial, .root].randomElement(using: &generator) ?? .root,
      snapshotAgeHours: Bool.random(using: &generator)
        ? number(&generator, 0...RestoreOutcome.maxCount) : nil,
      durationMicroseconds: number(&generator, 0...RestoreOutcome.maxDurationMicroseconds),
      crashLoop: RestoreOutcome.CrashLoop.allCases.randomElement(using: &generator) ?? .none,
      items: items, omittedItems: number(&generator, 0...RestoreOutcome.maxCount))
  }

  @Test("jsonLine of 5,000 generated records reads back equal")
  func roundTrip() throws {
    var generator = SplitMix64(state: 33)
    for _ in 0..<5000 {
      let outcome = Self.outcome(&generator)
      let line = outcome.jsonLine
      #expect(
        try RestoreOutcome(jsonLine: line) == outcome, "\(String(decoding: line, as: UTF8.self))")
      // The same bytes as any collection, with a final newline, and with a \r before it.
      #expect(try RestoreOutcome(jsonLine: Array(line) + [0x0D, 0x0A]) == outcome)
    }
  }

  @Test("a record made from a restore reads back equal")
  func fromARestore() throws {
    let line = Data(
      #"{"format":1,"appBuild":"3.0 (300)","routeSchemaVersion":3,"storedRouteSchemaVersion":2,"outcome":"partial","snapshotAgeHours":26,"durationMicroseconds":210,"crashLoop":"none","items":[{"kind":"dropped","location":"stack","stack":null,"tag":"Shop.Route","fromTag":null,"reason":"removedCase","fromVersion":null,"toVersion":null,"count":3}],"omittedItems":0}"#
        .utf8)
    let outcome = try RestoreOutcome(jsonLine: line)
    #expect(outcome.appBuild == "3.0 (300)")
    #expect(outcome.outcome == .partial)
    #expect(outcome.items.map(\.count) == [3])
    #expect(outcome.jsonLine == line)
  }

  @Test(
    "the record of a real restore reads back equal, under every policy",
    arguments: RestorePolicy.allCases)
  func fromRealRestores(policy: RestorePolicy) throws {
    let scene = try RestoreTests.restore(RestoreTests.v1Snapshot(), policy: policy)
    for options in [
      RestoreOutcome.Options(),
      RestoreOutcome.Options(tag: { "h" + String($0.count) }, includesStackNames: true),
    ] {
      let outcome = RestoreOutcome(
        scene, appBuild: "2.0 (200)", routeSchemaVersion: 2, restoredAt: sampleDate,
        duration: .microseconds(180), options: options)
      #expect(!outcome.items.isEmpty)
      let read = try RestoreOutcome(jsonLine: outcome.jsonLine)
      #expect(read == outcome)
      #expect(read.outcome == scene.report.outcome)
    }
  }

  static let base =
    #"{"format":1,"appBuild":"3.0 (300)","routeSchemaVersion":3,"storedRouteSchemaVersion":2,"outcome":"partial","snapshotAgeHours":26,"durationMicroseconds":210,"crashLoop":"none","items":[ITEM],"omittedItems":0}"#
  static let item =
    #"{"kind":"dropped","location":"stack","stack":null,"tag":"Shop.Route","fromTag":null,"reason":"removedCase","fromVersion":null,"toVersion":null,"count":3}"#

  /// The base record with `old` replaced by `new` (in the record, then in its item).
  static func line(_ old: String = "", _ new: String = "") -> String {
    let record = base.replacingOccurrences(of: "ITEM", with: item)
    return old.isEmpty ? record : record.replacingOccurrences(of: old, with: new)
  }

  static let hostile: [(String, RestoreOutcome.ReadError.Code)] = [
    ("", .notJSON),
    ("not json", .notJSON),
    (#"{"format":1"#, .notJSON),
    (line() + "x", .notJSON),
    ("[1,2]", .wrongType("record")),
    ("null", .wrongType("record")),
    (line(#""format":1"#, #""format":2"#), .newerFormat(2)),
    (#"{"format":7,"whatever":[]}"#, .newerFormat(7)),
    (line(#""format":1"#, #""format":0"#), .invalidValue("format")),
    (line(#""format":1"#, #""format":"1""#), .wrongType("format")),
    (line(#""format":1"#, #""format":1.0"#), .wrongType("format")),
    (line(#""format":1,"#, ""), .missingField("format")),
    (line(#""outcome":"partial","#, ""), .missingField("outcome")),
    (line(#""outcome":"partial""#, #""outcome":"lost""#), .invalidValue("outcome")),
    (line(#""crashLoop":"none""#, #""crashLoop":true"#), .wrongType("crashLoop")),
    (line(#""appBuild":"3.0 (300)""#, #""appBuild":3"#), .wrongType("appBuild")),
    (
      line(
        #""appBuild":"3.0 (300)""#, #""appBuild":""# + String(repeating: "9", count: 101) + #"""#),
      .invalidValue("appBuild")
    ),
    (line(#""items":["#, #""items":{"#).replacingOccurrences(of: "}],", with: "}},"), .notJSON),
    (line(#""items":[{"kind""#, #""items":[1,{"kind""#), .wrongType("items[0]")),
    (
      line(#""items":["#, #""items":"#).replacingOccurrences(of: "}],", with: "},"),
      .wrongType("items")
    ),
    (line(#""count":3"#, #""count":-3"#), .invalidValue("items[0].count")),
    (line(#""count":3"#, #""count":0"#), .invalidValue("items[0].count")),
    (line(#""count":3"#, #""count":1000000000001"#), .invalidValue("items[0].count")),
    (line(#""count":3"#, #""count":99999999999999999999999"#), .invalidValue("items[0].count")),
    (line(#""count":3"#, #""count":1e3"#), .wrongType("items[0].count")),
    (line(#","count":3"#, ""), .missingField("items[0].count")),
    (line(#""kind":"dropped""#, #""kind":"kept""#), .invalidValue("items[0].kind")),
    (line(#""location":"stack""#, #""location":"window""#), .invalidValue("items[0].location")),
    (line(#""omittedItems":0"#, #""omittedItems":-1"#), .invalidValue("omittedItems")),
    (
      line(#""snapshotAgeHours":26"#, #""snapshotAgeHours":-26"#), .invalidValue("snapshotAgeHours")
    ),
    (
      line(#""durationMicroseconds":210"#, #""durationMicroseconds":9223372036854775807"#),
      .invalidValue("durationMicroseconds")
    ),
    (
      line(#""omittedItems":0"#, #""omittedItems":0,"omittedItems":1"#),
      .invalidValue("omittedItems")
    ),
    (line(#""tag":"Shop.Route""#, #""tag":"\ud800""#), .notJSON),
  ]

  @Test("each hostile line is refused with its code", arguments: hostile)
  func hostileLine(line: String, code: RestoreOutcome.ReadError.Code) {
    #expect(throws: RestoreOutcome.ReadError.self) { try RestoreOutcome(jsonLine: Data(line.utf8)) }
    do {
      _ = try RestoreOutcome(jsonLine: Data(line.utf8))
    } catch {
      #expect(error.code == code, "\(line): \(error)")
      #expect(!error.description.isEmpty && !error.description.contains("\n"))
    }
  }

  @Test("unknown keys are skipped, wherever they are and whatever they hold")
  func unknownKeys() throws {
    let line = Self.line(#""format":1,"#, #""later":{"a":[1,{"b":null}]},"format":1,"#)
      .replacingOccurrences(of: #""count":3"#, with: #""count":3,"weight":1.5"#)
    #expect(
      try RestoreOutcome(jsonLine: Data(line.utf8))
        == RestoreOutcome(jsonLine: Data(Self.line().utf8)))
  }

  @Test("a line over the limit is refused before it is read")
  func tooLarge() {
    let line = Data(Self.line().utf8) + Data(repeating: 0x20, count: RestoreOutcome.maxLineBytes)
    #expect {
      try RestoreOutcome(jsonLine: line)
    } throws: { error in
      (error as? RestoreOutcome.ReadError)?.code == .tooLarge
    }
  }

  @Test("damaged records are read or refused, never a crash")
  func damaged() {
    var generator = SplitMix64(state: 7)
    var refused = 0
    for _ in 0..<3000 {
      let damaged = mutate(Self.outcome(&generator).jsonLine, using: &generator)
      do {
        _ = try RestoreOutcome(jsonLine: damaged)
      } catch {
        refused += 1
      }
    }
    #expect(refused > 1000)
  }
}
