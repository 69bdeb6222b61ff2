import Foundation
import Testing

@testable import Waypoint

/// The stored form (`StoredDocument`): the writer's stored bytes, the transform of a document's
/// JSON and the expansion agree, give back the document byte for byte, and bytes from a file of
/// any shape are expanded within the limit or left as they are.
@Suite("The stored form of a document")
struct StoredDocumentTests {
  /// Tags that repeat, some of which `==` takes for equal but whose bytes differ (composed and
  /// decomposed é, the Kelvin sign), with escapes, and payloads and names of every kind.
  static let tags = [
    "App.Route", "App.Route", "App.Other", "café", "cafe\u{301}", "K", "\u{212A}",
    "quote \" and \\ backslash", "",
  ]
  static let texts = [
    "", "{}", #"{"id":1}"#, "quote \" and backslash \\", "controls \u{0}\u{1F}", "🎈 é 日本",
    #"{"json":"x","tag":"y"}"#, ",\"tag\":\"App.Route\"",
  ]

  static func randomSnapshot(_ generator: inout SplitMix64) -> SceneSnapshot {
    func route() -> RouteRecord {
      RouteRecord(
        tag: tags.randomElement(using: &generator) ?? "",
        json: texts.randomElement(using: &generator) ?? "",
        version: Bool.random(using: &generator) ? 1 : Int.random(in: 2...9, using: &generator))
    }
    func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &generator) ? make() : nil }
    var stacks: [String: [RouteRecord]] = [:]
    for _ in 0..<Int.random(in: 0...4, using: &generator) {
      let name = ["main", "detail", "a", "Z", "é"].randomElement(using: &generator) ?? "main"
      // Mostly runs of one tag, as apps save them.
      let run = route()
      stacks[name] = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
        Int.random(in: 0..<3, using: &generator) == 0 ? route() : run
      }
    }
    return SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: Int.random(in: 1...9, using: &generator),
        appBuild: maybe { "3.1 (512)" },
        savedAt: Date(
          timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &generator)))),
      stacks: stacks, selectedTab: maybe(route),
      split: maybe {
        SplitViewSnapshot(sidebarSelection: maybe(route), contentSelection: maybe(route))
      },
      sheet: maybe(route))
  }

  @Test(
    "the writer's stored form is the transform of its JSON, and expands to the JSON byte for byte")
  func roundTrips() throws {
    var generator = SplitMix64(state: 2026)
    var elided = 0
    for iteration in 0..<3000 {
      let snapshot = Self.randomSnapshot(&generator)
      let json = snapshot.encoded()
      let written = snapshot.encodedLocatingSavedAt(storedForm: true)
      let place = "iteration \(iteration): \(String(decoding: json, as: UTF8.self))"
      #expect(
        written.document == StoredDocument.elidingRepeatedTags(json, limits: .default), "\(place)")
      #expect(written.jsonCount == json.count, "\(place)")
      #expect(written.savedAt == snapshot.encodedLocatingSavedAt().savedAt, "\(place)")
      #expect(
        StoredDocument.expanded(written.document, limits: .default) == .document(json), "\(place)")
      // The JSON is its own stored form only when no tag repeats.
      #expect(StoredDocument.expanded(json, limits: .default) == .document(json), "\(place)")
      if written.document.count < json.count { elided += 1 }
    }
    // Most documents leave tags out, or the test proves little.
    #expect(elided > 1000, "\(elided) documents left tags out")
  }

  @Test("a tag is left out only when its bytes are the previous record's in the same stack")
  func onlyRepeatedBytes() throws {
    func record(_ tag: String) -> RouteRecord { RouteRecord(tag: tag, json: "{}") }
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 1, appBuild: nil, savedAt: Date(timeIntervalSince1970: 0)),
      stacks: [
        "a": [record("App.Route"), record("App.Route"), record("café"), record("cafe\u{301}")],
        "b": [record("App.Route"), record("K"), record("\u{212A}"), record("\u{212A}")],
      ],
      selectedTab: record("App.Route"), sheet: record("App.Route"))
    let stored = String(
      decoding: snapshot.encodedLocatingSavedAt(storedForm: true).document, as: UTF8.self)
    #expect(
      stored.hasSuffix(
        #""stacks":{"a":[{"json":"{}","tag":"App.Route"},{"json":"{}"},{"json":"{}","tag":"café"},"#
          + #"{"json":"{}","tag":"cafe\#u{301}"}],"b":[{"json":"{}","tag":"App.Route"},"#
          + #"{"json":"{}","tag":"K"},{"json":"{}","tag":"\#u{212A}"},{"json":"{}"}]}}"#),
      "\(stored)")
    // The first record of a stack, the tab and the sheet keep theirs.
    #expect(stored.contains(#""selectedTab":{"json":"{}","tag":"App.Route"}"#))
    #expect(stored.contains(#""sheet":{"json":"{}","tag":"App.Route"}"#))
  }

  /// The stored bytes `text`, expanded under `limits`.
  func expand(_ text: String, limits: InputLimits = .default) -> StoredDocument.Expansion {
    StoredDocument.expanded(Data(text.utf8), limits: limits)
  }

  @Test(
    "records that are not the writer's get no tag: the first of a stack, one after a record without a string tag, one whose first member is not json"
  )
  func unusualRecords() {
    let head = #"{"format":1,"savedAt":"2026-01-01T00:00:00Z","stacks":"#
    // Left as they are.
    for stacks in [
      #"{"a":[{"json":"{}"}]}"#,
      #"{"a":[{"json":"{}","tag":1},{"json":"{}"}]}"#,
      #"{"a":[{"json":"{}","tag":null},{"json":"{}"}]}"#,
      #"{"a":[7,{"json":"{}"}]}"#,
      #"{"a":[{"json":"{}","tag":"T"},{"version":2,"json":"{}"}]}"#,
      #"{"a":[{"json":"{}","tag":"T"},{"json":1}]}"#,
      #"{"a":[{"json":"{}","tag":"T"},{}]}"#,
      #"{"a":[{"json":"{}","tag":"T"}],"b":[{"json":"{}"}]}"#,
      #"{"a":[{"json":"{}","tag":"T"},{"json":"{}","tag":"U"}]}"#,
    ] {
      let text = head + stacks + "}"
      #expect(expand(text) == .document(Data(text.utf8)), "\(stacks)")
    }
    // Given the previous record's tag, its escapes kept, whitespace anywhere.
    #expect(
      expand(
        head
          + #" { "a" : [ {"json":"{}","tag":"T\"\\"} , { "json" : "x\"" , "version":2 } , {"json":""} ] } }"#
      )
        == .document(
          Data(
            (head
              + #" { "a" : [ {"json":"{}","tag":"T\"\\"} , { "json" : "x\"","tag":"T\"\\" , "version":2 } , {"json":"","tag":"T\"\\"} ] } }"#)
              .utf8)))
    // A record with two tags keeps its first when it repeats the previous route's: left out, the
    // second would be read in its place (a reviewer's find).
    let twice =
      head + #"{"main":[{"json":"1","tag":"X"},{"json":"2","tag":"X","tag":"Y"},{"json":"3"}]}}"#
    #expect(
      StoredDocument.elidingRepeatedTags(Data(twice.utf8), limits: .default) == Data(twice.utf8))
    #expect(
      expand(twice)
        == .document(
          Data(
            (head
              + #"{"main":[{"json":"1","tag":"X"},{"json":"2","tag":"X","tag":"Y"},{"json":"3","tag":"X"}]}}"#)
              .utf8)))
    // A `"stacks"` member that is not an object, and keys written with escapes, are left alone.
    for text in [
      #"{"stacks":[{"json":"{}","tag":"T"},{"json":"{}"}]}"#,
      #"{"st\u0061cks":{"a":[{"json":"{}","tag":"T"},{"json":"{}"}]}}"#,
      #"{"stacks":{"a":[{"json":"{}","tag":"T"},{"js\u006fn":"{}"}]}}"#,
    ] {
      #expect(expand(text) == .document(Data(text.utf8)), "\(text)")
    }
  }

  @Test(
    "bytes whose structure cannot be walked come back as they are, deep nesting without recursion past the limit"
  )
  func unwalkable() {
    for text in [
      "", "{", "}", "[]", "null", #"{"stacks":{"a":[{"json":"{}","tag":"T"},{"json":"{}"}]}} x"#,
      #"{"stacks":{"a":[{"json":"{}","tag":"T"},{"json":"{}"}]}"#,
      #"{"stacks":{"a":[{"json":"{}","tag":"T},{"json":"{}"}]}}"#,
      #"{"stacks":{"a":[{"json":"{}","tag":"T"},{"json":"{}"]}}"#,
      #"{"stacks":{"a":[{"json":"{}","tag":"T"}{"json":"{}"}]}}"#,
      #"{"x":,"stacks":{"a":[{"json":"{}","tag":"T"},{"json":"{}"}]}}"#,
      "{\"stacks\":{\"a\":[{\"json\":\"\\",
    ] {
      #expect(expand(text) == .document(Data(text.utf8)), "\(text)")
    }
    // A million brackets: refused at the depth limit, not walked to the bottom.
    let deep = #"{"x":"# + String(repeating: "[", count: 1_000_000) + "}"
    #expect(expand(deep) == .document(Data(deep.utf8)))
    let stacked =
      #"{"stacks":{"a":[{"json":"{}","tag":"T"},{"json":"{}","x":"#
      + String(repeating: "{\"y\":", count: 100_000) + "}"
    #expect(expand(stacked) == .document(Data(stacked.utf8)))
    // Within the limit's depth, expanded; one deeper, left as it is.
    let nested = #"{"stacks":{"a":[{"json":"{}","tag":"T"},{"json":"{}","x":[[1]]}]}}"#
    #expect(expand(nested, limits: InputLimits(maxNestingDepth: 6)) != .document(Data(nested.utf8)))
    #expect(expand(nested, limits: InputLimits(maxNestingDepth: 5)) == .document(Data(nested.utf8)))
  }

  @Test("a row that would expand past the size limit is counted exactly, never made")
  func expansionLimit() {
    // A 4,000-byte tag named once, then 90,000 records that inherit it: 1 MB stored, 360 MB expanded.
    let tag = String(repeating: "T", count: 4000)
    let records = String(repeating: #",{"json":""}"#, count: 90_000)
    let text = #"{"stacks":{"a":[{"json":"","tag":""# + tag + #""}"# + records + "]}}"
    let expected = text.utf8.count + 90_000 * (#","tag":"#.utf8.count + tag.utf8.count + 2)
    #expect(
      expand(text, limits: InputLimits(maxDocumentBytes: 1 << 20)) == .tooLarge(byteCount: expected)
    )
    #expect(
      StoredDocument.expandedDocument(
        Data(text.utf8), limits: InputLimits(maxDocumentBytes: 1 << 20)) == nil)
    // At the limit exactly, made.
    let small = #"{"stacks":{"a":[{"json":"","tag":"T"},{"json":""}]}}"#
    let size = small.utf8.count + #","tag":"T""#.utf8.count
    #expect(
      expand(small, limits: InputLimits(maxDocumentBytes: size)) != .tooLarge(byteCount: size))
    #expect(
      expand(small, limits: InputLimits(maxDocumentBytes: size - 1)) == .tooLarge(byteCount: size))
    // Stored bytes over the limit that cannot be walked: their own size.
    #expect(
      expand("{" + String(repeating: " ", count: 100), limits: InputLimits(maxDocumentBytes: 50))
        == .tooLarge(byteCount: 101))
  }

  @Test(
    "bytes damaged at random expand without trapping, and a stored form damaged expands to what its reading accepts or refuses",
    arguments: [1, 2] as [UInt64])
  func damaged(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    for _ in 0..<2000 {
      let snapshot = Self.randomSnapshot(&generator)
      let stored = mutate(
        snapshot.encodedLocatingSavedAt(storedForm: true).document, using: &generator)
      switch StoredDocument.expanded(stored, limits: .default) {
      case .document(let document):
        // Never shorter than the stored bytes: only tags are put back.
        #expect(document.count >= stored.count)
        _ = try? SceneSnapshot(reading: document, limits: .default)
      case .tooLarge(let byteCount):
        #expect(byteCount > InputLimits.default.maxDocumentBytes)
      }
    }
  }
}
