import Foundation
import Testing

@testable import Waypoint

@Suite("Hand-written snapshot encoding")
struct SnapshotWriterTests {
  static let awkward = [
    "", "plain", "quote \" and backslash \\", "slash / and \\/",
    "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
    "emoji 🎈 and é and 日本", #"{"nested":{"json":[1,2,"x"]}}"#, "\u{7F} del", "\u{2028} separator",
  ]

  func randomSnapshot(_ generator: inout SplitMix64) -> SceneSnapshot {
    func text() -> String { Self.awkward.randomElement(using: &generator) ?? "" }
    func route() -> RouteRecord {
      RouteRecord(
        tag: text(), json: text(),
        version: Bool.random(using: &generator) ? 1 : Int.random(in: 2...9, using: &generator))
    }
    func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &generator) ? make() : nil }
    var stacks: [String: [RouteRecord]] = [:]
    for _ in 0..<Int.random(in: 0...4, using: &generator) {
      let name =
        ["main", "detail", "Tab 1", "a", "Z", "tab-2", "_x", "2", "é", "e\u{301}"].randomElement(
          using: &generator)
        ?? "main"
      stacks[name] = (0..<Int.random(in: 0...5, using: &generator)).map { _ in route() }
    }
    let date = Date(
      timeIntervalSince1970: Double(
        Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator)))
    return SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: Int.random(in: 1...1000, using: &generator), appBuild: maybe(text),
        savedAt: date),
      stacks: stacks,
      selectedTab: maybe(route),
      split: maybe {
        SplitViewSnapshot(
          sidebarSelection: maybe(route), contentSelection: maybe(route),
          columnVisibility: ColumnVisibility(rawValue: text()),
          preferredCompactColumn: maybe { SplitColumn(rawValue: text()) })
      },
      sheet: maybe(route))
  }

  @Test("the hand-written document is byte for byte what JSONEncoder writes, and reads back equal")
  func matchesJSONEncoder() throws {
    let seed: UInt64 = 42
    var generator = SplitMix64(state: seed)
    for iteration in 0..<500 {
      let snapshot = randomSnapshot(&generator)
      let written = snapshot.encoded()
      let place = "seed \(seed) iteration \(iteration)"
      #expect(
        written == snapshot.encodedWithJSONEncoder(),
        "\(place): \(String(decoding: written, as: UTF8.self))")
      #expect(try SceneSnapshot(decoding: written) == snapshot, "\(place)")
    }
  }

  @Test(
    "strings of every length up to 40, with escapes at every position, are written as JSONEncoder writes them"
  )
  func escapesAtEveryPosition() throws {
    // The writer looks for bytes to escape eight at a time: a byte to escape must be found
    // whatever its place in a word and in the tail, beside multi-byte characters and the bytes
    // just below and above the ones that need escaping.
    let pieces = [
      "a", "Z", "\"", "\\", "\u{0}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "🎈", "/",
      "\n", "\t",
    ]
    var generator = SplitMix64(state: 7)
    for length in 0...40 {
      for iteration in 0..<60 {
        var text = ""
        for _ in 0..<length {
          // Mostly plain text, as route payloads are, with escapes sprinkled in.
          text +=
            Int.random(in: 0..<4, using: &generator) == 0
            ? pieces.randomElement(using: &generator) ?? "a" : "x"
        }
        let record = RouteRecord(tag: text, json: text, version: 1)
        let snapshot = SceneSnapshot(
          metadata: SnapshotMetadata(
            routeSchemaVersion: 1, appBuild: text, savedAt: Date(timeIntervalSince1970: 0)),
          stacks: ["main": [record]])
        #expect(
          snapshot.encoded() == snapshot.encodedWithJSONEncoder(),
          "length \(length) iteration \(iteration): \(text.debugDescription)")
      }
    }
  }

  @Test("dates format as Foundation's ISO 8601 and parse back", arguments: [1 as UInt64, 2, 3])
  func dates(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    for iteration in 0..<2000 {
      let date = Date(
        timeIntervalSince1970: Double(
          Int64.random(in: -11_000_000_000...200_000_000_000, using: &generator)))
      let text = ISO8601Seconds.format(date)
      let place = "seed \(seed) iteration \(iteration): \(date.timeIntervalSince1970)"
      #expect(text == date.formatted(.iso8601), "\(place)")
      #expect(ISO8601Seconds.parse(text) == date, "\(place)")
    }
  }

  @Test(
    "impossible dates are refused, other ISO 8601 forms go to Foundation",
    arguments: [
      "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z",
      "2026-01-01T00:60:00Z", "202a-01-01T00:00:00Z", "", "yesterday",
    ])
  func impossibleDates(text: String) {
    #expect(ISO8601Seconds.parse(text) == nil)
  }

  @Test(
    "a date outside the years 0000-9999 is refused: the format could not write it back",
    arguments: [
      "20221-6-01T04:09:15Z", "20221-06-01T04:09:15Z", "+10000-01-01T00:00:00Z",
      "-0001-12-31T23:59:59Z",
    ])
  func unwritableYears(text: String) throws {
    #expect(ISO8601Seconds.parse(text) == nil)
    // Found by the round-trip fuzz target: such a document read, then wrote a clamped date back.
    let document = #"{"format":1,"routeSchemaVersion":1,"savedAt":"\#(text)"}"#
    #expect(throws: SnapshotFormatError.self) {
      try SceneSnapshot(decoding: Data(document.utf8), limits: .default)
    }
  }

  @Test(
    "the first and last seconds the format writes read back",
    arguments: ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
  func representableEdges(text: String) {
    let date = ISO8601Seconds.parse(text)
    #expect(date.map(ISO8601Seconds.format) == text)
  }

  @Test("leap days and other offsets parse")
  func leapDays() {
    #expect(
      ISO8601Seconds.parse("2024-02-29T23:59:59Z") == Date(timeIntervalSince1970: 1_709_251_199))
    #expect(
      ISO8601Seconds.parse("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
    #expect(ISO8601Seconds.parse("1900-02-29T00:00:00Z") == nil)
    #expect(
      ISO8601Seconds.parse("2026-11-29T13:00:00+01:00")
        == Date(timeIntervalSince1970: 1_796_040_000 - 86_400 * 1))
  }

  @Test("a save time with a fraction of a second reads rounded down, and writes back as it reads")
  func fractionOfASecond() throws {
    #expect(
      ISO8601Seconds.parse("2026-12-01T04:09:01.5Z") == Date(timeIntervalSince1970: 1_796_098_141))
    // A one-digit seconds field with a fraction, which the fuzzer found: Foundation reads it.
    let document = Data(
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-12-01T04:09:1.5Z","stacks":{}}"#.utf8)
    let snapshot = try SceneSnapshot(decoding: document, limits: .default)
    #expect(snapshot.metadata.savedAt == Date(timeIntervalSince1970: 1_796_098_141))
    let again = try SceneSnapshot(decoding: snapshot.encoded(), limits: .default)
    #expect(again == snapshot)
  }
}

@Suite("Hand-written snapshot encoding of many stacks")
struct ManyStacksWriterTests {
  @Test(
    "any number of stacks is written in JSONEncoder's key order",
    arguments: [0, 1, 2, 3, 8, 9, 16, 17, 40, 300])
  func stacksInKeyOrder(count: Int) throws {
    var generator = SplitMix64(state: UInt64(count) &+ 5)
    let pieces = [
      "s", "S", "tab", "Tab", "_", "-", "1", "9", "10", "é", "e\u{301}", "日本", "🎈", "z",
    ]
    var stacks: [String: [RouteRecord]] = [:]
    while stacks.count < count {
      var name = ""
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        name += pieces.randomElement(using: &generator) ?? "s"
      }
      stacks[name] = (0..<Int.random(in: 0...3, using: &generator)).map {
        RouteRecord(tag: "App.Route", json: #"{"item":{"id":\#($0)}}"#)
      }
    }
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 1, appBuild: nil, savedAt: Date(timeIntervalSince1970: 0)),
      stacks: stacks)
    let written = snapshot.encoded()
    #expect(
      written == snapshot.encodedWithJSONEncoder(), "\(String(decoding: written, as: UTF8.self))")
    #expect(try SceneSnapshot(decoding: written) == snapshot)
  }
}

@Suite("Hand-written snapshot encoding of early save times")
struct EarlySaveTimeWriterTests {
  @Test(
    "a save time before 1582-10-15 is written in the proleptic Gregorian calendar, read back the same"
  )
  func prolepticGregorian() throws {
    // 1582-10-15T00:00:00Z, the first day of the Gregorian calendar, is -12,219,292,800 s in Unix
    // time; the day before is 1582-10-14 in the proleptic Gregorian calendar (1582-10-04 in the
    // Julian calendar, which Foundation's formatting uses there).
    for (seconds, text) in [
      (-12_219_292_800.0, "1582-10-15T00:00:00Z"), (-12_219_379_200.0, "1582-10-14T00:00:00Z"),
      (-62_135_596_800.0, "0001-01-01T00:00:00Z"), (-62_167_219_200.0, "0000-01-01T00:00:00Z"),
    ] {
      let snapshot = SceneSnapshot(
        metadata: SnapshotMetadata(
          routeSchemaVersion: 1, savedAt: Date(timeIntervalSince1970: seconds)))
      let written = String(decoding: snapshot.encoded(), as: UTF8.self)
      #expect(written.contains("\"savedAt\":\"\(text)\""), "\(written)")
      let read = try SceneSnapshot(decoding: snapshot.encoded())
      #expect(read.metadata.savedAt.timeIntervalSince1970 == seconds)
    }
  }
}
