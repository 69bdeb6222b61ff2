import Foundation
import Testing
import Waypoint

/// `waypoint validate` judges the usual scene straight from the document's bytes
/// (`FastPrediction`, `RouteShape.certainlyMatches`): whenever it answers, the full prediction
/// gives the same answer, for valid, damaged and hostile documents alike.
@Suite("The fast prediction answers only what the full prediction says")
struct FastPredictionTests {
  static let registry = RouteRegistry(schemaVersion: 2)
    .registering(
      Fixtures.Route.self, tag: "T.Route", version: 2, aliases: ["T.OldRoute"],
      migrations: [RouteMigration(from: 1, [.renameCase(from: "start", to: "home")])],
      examples: Fixtures.routes
    )
    .registering(Fixtures.Profile.self, tag: "T.Profile", examples: Fixtures.profiles)
    .registering(Fixtures.Widths.self, tag: "T.Widths", examples: Fixtures.widths)
    .registering(Fixtures.Stamps.self, tag: "T.Stamps", examples: Fixtures.stamps)
    .registering(Fixtures.Matrix.self, tag: "T.Matrix", examples: Fixtures.matrices)
    .registering(Fixtures.Tab.self, tag: "T.Tab", examples: [.library, .search, .account])
    .registering(Fixtures.Priority.self, tag: "T.Priority", examples: [.low])
  static let manifest = RouteManifest(registry: registry)

  /// The examples whose payloads are of the plainest form (integers written plainly, strings
  /// without escapes), as records of their registered types.
  static let plainRecords: [RouteRecord] =
    registry.records(for: Fixtures.routes) + registry.records(for: Fixtures.profiles)
    + registry.records(for: [Fixtures.widths[1]]) + registry.records(for: Fixtures.matrices)
    + registry.records(for: [Fixtures.Tab.library, .search, .account])
    + registry.records(for: [Fixtures.Priority.low, .high])

  /// Every example: also a 19-digit integer, fractions, dates with fractions and URLs (whose
  /// slashes JSONEncoder escapes).
  static let records: [RouteRecord] =
    plainRecords + registry.records(for: [Fixtures.widths[0]])
    + registry.records(for: Fixtures.stamps)

  /// A document of some of the records, in stacks, tab, split view and sheet.
  static func document(_ records: [RouteRecord], split: Bool, _ generator: inout SplitMix64)
    -> Data
  {
    var stacks: [String: [RouteRecord]] = [:]
    var rest = records[...]
    for name in ["main", "b", "side"] {
      let count = Int.random(in: 0...min(rest.count, 4), using: &generator)
      stacks[name] = Array(rest.prefix(count))
      rest = rest.dropFirst(count)
    }
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 2, appBuild: "1 (2)",
        savedAt: Date(
          timeIntervalSince1970: 1_800_000_000)),
      stacks: stacks, selectedTab: rest.popFirst(),
      split: split
        ? SplitViewSnapshot(
          sidebarSelection: rest.popFirst(), contentSelection: rest.popFirst(),
          columnVisibility: .doubleColumn, preferredCompactColumn: .content) : nil,
      sheet: rest.popFirst())
    return snapshot.encoded()
  }

  /// What the fast prediction says of `data`, checked against the full prediction under every
  /// policy; whether it answered. The fast prediction reads bytes as a store keeps them, so the
  /// full prediction reads them expanded (a document whose routes all carry their tags is its own
  /// expansion, but damage may take a tag away).
  @discardableResult
  static func expectAgreement(
    _ data: Data, _ fast: inout FastPrediction, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    expectStoredAgreement(data, &fast, context, sourceLocation: sourceLocation)
  }

  /// The fast prediction's answer of bytes as a store keeps them (`StoredDocument`), checked
  /// against the full prediction of their expansion, as `waypoint validate` gives them to each.
  @discardableResult
  static func expectStoredAgreement(
    _ stored: Data, _ fast: inout FastPrediction, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    guard let kept = stored.withUnsafeBytes({ fast.keptRoutes(in: $0) }) else { return false }
    guard let document = StoredDocument.expandedDocument(stored, limits: .default) else {
      Issue.record("\(context): fast says \(kept) kept of bytes over the limit once expanded")
      return true
    }
    for policy in RestorePolicy.allCases {
      let full = manifest.predict(encoded: document, policy: policy)
      let allKept = full.entries.allSatisfy { if case .kept = $0.fate { true } else { false } }
      #expect(
        full.report.outcome == .restored && full.entries.count == kept && allKept,
        "\(context): fast says \(kept) kept of the stored form, the prediction \(full.report) \(full.entries.map(\.fate)) for \(String(decoding: stored, as: UTF8.self))",
        sourceLocation: sourceLocation)
    }
    return true
  }

  @Test(
    "every valid document of current routes is answered, with its route count, as JSON and in its stored form"
  )
  func validDocuments() throws {
    var fast = FastPrediction(manifest: Self.manifest, limits: .default)
    var generator = SplitMix64(state: 7)
    var shorter = 0
    for round in 0..<200 {
      // Runs of one type in the stacks, as apps save them, for tags left out.
      let records = Self.plainRecords.shuffled(using: &generator).sorted { $0.tag < $1.tag }
      let data = Self.document(records, split: round % 2 == 0, &generator)
      let decoded = try SceneSnapshot(decoding: data)
      let answer = data.withUnsafeBytes { fast.keptRoutes(in: $0) }
      #expect(answer == decoded.routes.count, "round \(round)")
      Self.expectAgreement(data, &fast, "round \(round)")
      let stored = StoredDocument.elidingRepeatedTags(data, limits: .default)
      if stored.count < data.count { shorter += 1 }
      #expect(
        stored.withUnsafeBytes { fast.keptRoutes(in: $0) } == decoded.routes.count, "round \(round)"
      )
      Self.expectStoredAgreement(stored, &fast, "round \(round)")
    }
    #expect(shorter > 150, "\(shorter) stored forms left tags out")
  }

  @Test(
    "payloads damaged the way schema changes and hand edits do", arguments: [1, 2, 3] as [UInt64])
  func damagedPayloads(seed: UInt64) throws {
    var fast = FastPrediction(manifest: Self.manifest, limits: .default)
    var generator = SplitMix64(state: seed)
    var answered = 0
    var unanswered = 0
    for round in 0..<600 {
      var records = Self.plainRecords.shuffled(using: &generator).prefix(5).map { $0 }
      let index = Int.random(in: 0..<records.count, using: &generator)
      let record = records[index]
      let shape = try #require(Self.manifest.route(named: record.tag)?.shape)
      let value = try JSONValue(parsing: record.json)
      var mutator = PayloadMutator(
        vocabulary: shape.vocabulary + ["T.Route", "home"], generator: generator)
      let text = mutator.mutate(value)
      generator = mutator.generator
      records[index] = RouteRecord(tag: record.tag, json: text, version: record.version)
      let data = Self.document(records, split: round % 3 == 0, &generator)
      if Self.expectAgreement(data, &fast, "seed \(seed) round \(round)") {
        answered += 1
      } else {
        unanswered += 1
      }
    }
    // Both answers must occur, or the test proves nothing.
    #expect(answered > 100, "\(answered) answered")
    #expect(unanswered > 100, "\(unanswered) left to the full prediction")
  }

  @Test("documents damaged byte by byte", arguments: [4, 5] as [UInt64])
  func damagedDocuments(seed: UInt64) {
    var fast = FastPrediction(manifest: Self.manifest, limits: .default)
    var generator = SplitMix64(state: seed)
    var answered = 0
    var answeredStored = 0
    for round in 0..<1500 {
      let records = Self.plainRecords.shuffled(using: &generator).prefix(6).map { $0 }
      let document = Self.document(records, split: round % 2 == 0, &generator)
      let data = mutate(document, using: &generator)
      if Self.expectAgreement(data, &fast, "seed \(seed) round \(round)") { answered += 1 }
      // The stored form damaged: what the fast prediction answers of it, the full prediction
      // says of its expansion.
      let stored = mutate(
        StoredDocument.elidingRepeatedTags(document, limits: .default), using: &generator)
      if Self.expectStoredAgreement(stored, &fast, "stored, seed \(seed) round \(round)") {
        answeredStored += 1
      }
    }
    #expect(answered > 5, "\(answered) answered")
    #expect(answeredStored > 5, "\(answeredStored) stored forms answered")
  }

  /// The payload's JSON text with some of its values replaced: integers and strings that are not
  /// keys, by values that the reading of a remembered layout's slot accepts (other digits) or
  /// refuses (fractions, exponents, leading zeros, 19 digits, escapes, `null`, spaces, strings
  /// for numbers and numbers for strings).
  static func varyValues(_ json: String, _ generator: inout SplitMix64) -> String {
    let numbers = [
      "0", "7", "42", "-1", "-0", "99999", "01", "1.5", "1e2", "123456789012345678",
      "1234567890123456789", "null", "true", "\"3\"", " 5", "5 ", "-", "",
    ]
    let strings = ["", "a", "shoes and boots", "é", "\\n", "\\\"", "\\u0041", "x y z", "\t"]
    let bytes = Array(json.utf8)
    var out = ""
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        // A plain payload's strings have no escapes: the next quote closes it.
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        let isKey = end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: ":")
        if !isKey, end < bytes.count, Int.random(in: 0..<3, using: &generator) == 0 {
          if Bool.random(using: &generator) {
            out += "\"" + strings.randomElement(using: &generator)! + "\""
          } else {
            out += numbers.randomElement(using: &generator)!
          }
        } else {
          out += String(decoding: bytes[index...min(end, bytes.count - 1)], as: UTF8.self)
        }
        index = end + 1
      } else if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) {
        var end = index + 1
        while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
        if Int.random(in: 0..<2, using: &generator) == 0 {
          out += numbers.randomElement(using: &generator)!
        } else {
          out += String(decoding: bytes[index..<end], as: UTF8.self)
        }
        index = end
      } else {
        out += String(UnicodeScalar(byte))
        index += 1
      }
    }
    return out
  }

  @Test(
    "a payload judged by a remembered layout gets the answer of a walk of its shape",
    arguments: [11, 12, 13] as [UInt64])
  func rememberedLayouts(seed: UInt64) {
    var remembering = FastPrediction(manifest: Self.manifest, limits: .default)
    var generator = SplitMix64(state: seed)
    var answered = 0
    var unanswered = 0
    for round in 0..<800 {
      var records = Self.plainRecords.shuffled(using: &generator).prefix(6).map { $0 }
      for index in records.indices where Bool.random(using: &generator) {
        let record = records[index]
        records[index] = RouteRecord(
          tag: record.tag, json: Self.varyValues(record.json, &generator),
          version: record.version)
      }
      let data = Self.document(records, split: round % 2 == 0, &generator)
      // A predictor of its own for each document: every payload walked.
      var walking = FastPrediction(
        manifest: Self.manifest, limits: .default, remembersLayouts: false)
      let walked = data.withUnsafeBytes { walking.keptRoutes(in: $0) }
      let answer = data.withUnsafeBytes { remembering.keptRoutes(in: $0) }
      #expect(
        answer == walked,
        "seed \(seed) round \(round): \(String(describing: answer)) against \(String(describing: walked)) for \(String(decoding: data, as: UTF8.self))"
      )
      if answer == nil { unanswered += 1 } else { answered += 1 }
      #expect(walking.payloadsJudgedByLayout == 0)
    }
    // Both answers occur, and layouts answered most of the payloads, or this proves nothing.
    #expect(answered > 100, "\(answered) answered")
    #expect(unanswered > 100, "\(unanswered) unanswered")
    #expect(remembering.payloadsJudgedByLayout > 1000, "\(remembering.payloadsJudgedByLayout)")
  }

  /// Documents written by hand: what each says is checked against the full prediction, and the
  /// ones the fast prediction must leave alone are named.
  @Test(
    "hand-written stored forms: a route that inherits the previous tag is answered as its expansion is, any other tagless route is left to the full prediction"
  )
  func handWrittenStored() {
    var fast = FastPrediction(manifest: Self.manifest, limits: .default)
    func stored(_ stacks: String, tab: String = "") -> Data {
      Data(
        (#"{"format":1,"routeSchemaVersion":2,"savedAt":"2027-01-15T08:00:00Z","# + tab
          + #""stacks":{"# + stacks + "}}").utf8)
    }
    let home = #"{"json":"{\"home\":{}}","tag":"T.Route","version":2}"#
    let tagless = #"{"json":"{\"home\":{}}","version":2}"#
    let profile = #"{"json":"{\"id\":1,\"tags\":[],\"name\":null}","tag":"T.Profile"}"#
    let answered = [
      stored(#""main":["# + [home, tagless, tagless].joined(separator: ",") + "]"),
      stored(
        #""main":["#
          + [profile, #"{"json":"{\"id\":2,\"tags\":[],\"name\":\"x\"}"}"#].joined(separator: ",")
          + "]"),
      stored(
        #""a":["# + home + #"],"b":["#
          + [profile, #" { "json" : "{\"id\":3,\"tags\":[],\"name\":null}" } "#].joined(
            separator: ",") + "]"),
    ]
    for (index, data) in answered.enumerated() {
      #expect(Self.expectStoredAgreement(data, &fast, "answered \(index)"), "answered \(index)")
    }
    let unanswered = [
      // The first of a stack, a tab, a route whose json comes after its version, one after
      // another stack's route: no tag to inherit.
      stored(#""main":["# + tagless + "]"),
      stored(#""main":["# + home + "]", tab: #""selectedTab":"# + tagless + ","),
      stored(#""main":["# + home + #",{"version":2,"json":"{\"home\":{}}"}]"#),
      stored(#""a":["# + home + #"],"b":["# + tagless + "]"),
      // The inherited tag's version is not the route's.
      stored(#""main":["# + [home, #"{"json":"{\"home\":{}}"}"#].joined(separator: ",") + "]"),
    ]
    for (index, data) in unanswered.enumerated() {
      #expect(
        !Self.expectStoredAgreement(data, &fast, "unanswered \(index)"), "unanswered \(index)")
    }
    // Within the size limit as stored, over it once expanded: left to the full reading.
    let many = stored(
      #""main":["# + ([home] + Array(repeating: tagless, count: 50)).joined(separator: ",") + "]")
    let expanded = StoredDocument.expandedDocument(many, limits: .default)?.count ?? 0
    #expect(expanded == many.count + 50 * #","tag":"T.Route""#.utf8.count)
    var under = FastPrediction(
      manifest: Self.manifest, limits: InputLimits(maxDocumentBytes: expanded - 1))
    #expect(many.withUnsafeBytes { under.keptRoutes(in: $0) } == nil)
    var exact = FastPrediction(
      manifest: Self.manifest, limits: InputLimits(maxDocumentBytes: expanded))
    #expect(many.withUnsafeBytes { exact.keptRoutes(in: $0) } == 51)
  }

  @Test("hostile and unusual documents")
  func handWritten() {
    var fast = FastPrediction(manifest: Self.manifest, limits: .default)
    func document(_ members: String, stacks: String) -> Data {
      Data(
        (#"{"format":1,"routeSchemaVersion":2,"savedAt":"2027-01-15T08:00:00Z","# + members
          + #""stacks":{"main":["# + stacks + "]}}").utf8)
    }
    func route(_ json: String, tag: String = "T.Route", version: String = "2") -> String {
      let escaped = JSONValue.string(json).jsonText
      return #"{"json":"# + escaped + #","tag":""# + tag + #"","version":"# + version + "}"
    }
    let home = route(#"{"home":{}}"#)
    // Answered: the plain form, and what is equal to it.
    let answered: [Data] = [
      document("", stacks: home),
      document("", stacks: [home, home].joined(separator: ",")),
      document("", stacks: route(#"{"home":{},"zz":[1,{"a":null}]}"#)),
      document("", stacks: route(#"{"profile":{"userId":-0}}"#)),
      document("", stacks: route(#" { "pair" : { "_0" : 3 , "name" : "é" } } "#)),
      document(#""appBuild":null,"sheet":null,"split":null,"#, stacks: home),
      document(
        "", stacks: route(#"{"id":1,"tags":[],"name":null}"#, tag: "T.Profile", version: "1")),
      document("", stacks: route(#""search""#, tag: "T.Tab", version: "null")),
      // An alias at the current version; a repeated key, the first of which is read.
      document("", stacks: route(#"{"home":{}}"#, tag: "T.OldRoute")),
      document("", stacks: route(#"{"profile":{"userId":1,"userId":"x"}}"#)),
      // Strings skipped in the escaped form.
      document("", stacks: route(#"{"home":{},"zz":["a",{"b":"c"}],"y":"é"}"#)),
    ]
    for (index, data) in answered.enumerated() {
      #expect(Self.expectAgreement(data, &fast, "answered \(index)"), "answered \(index)")
    }
    // Left to the full prediction, whatever it says.
    let unanswered: [Data] = [
      // An older version (a migration), a newer one, an alias, an unknown tag.
      document("", stacks: route(#"{"home":{}}"#, version: "1")),
      document("", stacks: route(#"{"home":{}}"#, version: "3")),
      document("", stacks: route(#"{"home":{}}"#, tag: "T.Nope")),
      // Two cases, a case that is not an object, a missing required field, a wrong type.
      document("", stacks: route(#"{"home":{},"settings":{}}"#)),
      document("", stacks: route(#"{"home":1}"#)),
      document("", stacks: route(#"{"profile":{}}"#)),
      document("", stacks: route(#"{"profile":{"userId":"1"}}"#)),
      // Numbers JSONDecoder reads its own way, out of range, escapes, duplicate keys.
      document("", stacks: route(#"{"profile":{"userId":1.0}}"#)),
      document("", stacks: route(#"{"search":{"page":256}}"#)),
      document("", stacks: route(#"{"search":{"page":1,"query":"\u0041"}}"#)),
      document("", stacks: route(#"{"profile":{"userId":"x","userId":1}}"#)),
      document("", stacks: route(#"{"profile":{"userId":12345678901234567890}}"#)),
      // Read in the escaped form: whitespace written as escapes, a quote or a backslash escaped
      // inside a string, an escaped slash, all judged in full.
      document("", stacks: route("{\"home\":{}}\n")),
      document("", stacks: route("{\"home\":\t{}}")),
      document("", stacks: route(#"{"search":{"page":1,"query":"a\"b"}}"#)),
      document("", stacks: route(#"{"search":{"page":1,"query":"a\\"}}"#)),
      document("", stacks: route(#"{"search":{"page":1,"query":"a\/b"}}"#)),
      document("", stacks: route(#"{"home":{},"zz":["\n"]}"#)),
      // Whitespace that is not escaped inside the payload's string: the document is not valid.
      document("", stacks: #"{"json":"{\"home\":"# + "\n" + #"{}}","tag":"T.Route","version":2}"#),
      document("", stacks: #"{"json":"{\"home\":"# + "\t" + #"{}}","tag":"T.Route","version":2}"#),
      document("", stacks: #"{"json":"\"search\""# + "\r" + #"","tag":"T.Tab","version":1}"#),
      // Keys that a dictionary lookup finds though their bytes differ: the Kelvin sign is "K".
      document(
        "",
        stacks: route(
          #"{"id":1,"tags":[],"name":null,"\#u{212A}":1}"#, tag: "T.Profile", version: "1")),
      // The document: a newer schema, unknown and repeated keys, escaped keys, a bad date.
      Data(
        (#"{"format":1,"routeSchemaVersion":3,"savedAt":"2027-01-15T08:00:00Z","stacks":{}}"#)
          .utf8),
      document(#""extra":1,"#, stacks: home),
      document(#""format":1,"#, stacks: home),
      document(#""appBuil\u0064":"x","#, stacks: home),
      Data((#"{"format":1,"savedAt":"2027-02-30T08:00:00Z","stacks":{}}"#).utf8),
      Data((#"{"format":2,"savedAt":"2027-01-15T08:00:00Z","stacks":{}}"#).utf8),
      Data((#"{"format":1,"savedAt":"2027-01-15T08:00:00Z","stacks":{"a":[],"a":[]}}"#).utf8),
      document(#""split":{"columnVisibility":"sometimes"},"#, stacks: home),
      document("", stacks: route(#"{"home":{}}"#) + ",1"),
    ]
    var generator = SplitMix64(state: 1)
    for record in Self.records where !Self.plainRecords.contains(record) {
      let data = Self.document([record], split: false, &generator)
      #expect(!Self.expectAgreement(data, &fast, record.json), "\(record.json)")
    }
    for (index, data) in unanswered.enumerated() {
      #expect(!Self.expectAgreement(data, &fast, "unanswered \(index)"), "unanswered \(index)")
    }
  }

  @Test("a certain match of a payload is a match", arguments: [11, 12] as [UInt64])
  func payloads(seed: UInt64) throws {
    var generator = SplitMix64(state: seed)
    var certain = 0
    var certainEscaped = 0
    for record in Self.records {
      let shape = try #require(Self.manifest.route(named: record.tag)?.shape)
      let value = try JSONValue(parsing: record.json)
      var mutator = PayloadMutator(vocabulary: shape.vocabulary, generator: generator)
      for round in 0..<60 {
        let text = round == 0 ? record.json : mutator.mutate(value)
        let isCertain = Array(text.utf8).withUnsafeBytes {
          shape.certainlyMatches(
            bytes: $0, references: { Self.manifest.route(named: $0)?.shape }, limits: .default)
        }
        let isCertainEscaped = escapedPayload(text).withUnsafeBytes {
          shape.certainlyMatches(
            escaped: $0, references: { Self.manifest.route(named: $0)?.shape }, limits: .default)
        }
        #expect(!isCertainEscaped || isCertain, "\(record.tag) \(text): certain only escaped")
        guard isCertain else { continue }
        certain += 1
        if isCertainEscaped { certainEscaped += 1 }
        let verdict = shape.match(
          json: text, references: { Self.manifest.route(named: $0)?.shape })
        #expect(verdict == .matches, "\(record.tag) \(text): \(verdict)")
      }
      generator = mutator.generator
    }
    #expect(certain > Self.records.count)
    #expect(certainEscaped > Self.records.count)
  }
}
