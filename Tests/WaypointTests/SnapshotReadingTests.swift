import Foundation
import Testing
import Waypoint

/// `SceneSnapshot(decoding:)`, Waypoint's own reader of snapshot documents, against its oracle,
/// `JSONDecoder` decoding the format's `Codable` description (`SnapshotDocumentOracle`): for every
/// document, written by Waypoint, damaged byte by byte or put together from hostile pieces, the
/// same snapshot or the same error (the same code, and for an error that names a field, the same
/// field and the same words).
@Suite("Reading snapshot documents agrees with JSONDecoder")
struct SnapshotReadingTests {
  typealias Outcome = Result<SceneSnapshot, SnapshotFormatError>

  static func read(_ data: Data, limits: InputLimits = .default) -> Outcome {
    Result { () throws(SnapshotFormatError) in try SceneSnapshot(decoding: data, limits: limits) }
  }

  static func oracle(_ data: Data, limits: InputLimits = .default) -> Outcome {
    Result { () throws(SnapshotFormatError) in
      try SnapshotDocumentOracle.decode(data, limits: limits)
    }
  }

  static func disagreement(
    _ read: Outcome, _ oracle: Outcome, data: Data, limits: InputLimits = .default
  ) -> String? {
    SnapshotDocumentOracle.disagreement(read, oracle, data: data, limits: limits)
  }

  /// What the comparisons saw, so that a test can show it met every kind of outcome.
  struct Tally {
    var read = 0
    var errors: [String: Int] = [:]

    mutating func add(_ outcome: Outcome) {
      switch outcome {
      case .success: read += 1
      case .failure(let error): errors[error.code.description, default: 0] += 1
      }
    }
  }

  /// That the documents compared gave more than `read` snapshots and more than `errors` errors of
  /// each of `codes`: a corpus that does not, proves little.
  static func expectVariety(
    _ tally: Tally, read: Int, errors: Int, of codes: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(tally.read > read, "\(tally)", sourceLocation: sourceLocation)
    for code in codes {
      #expect(
        tally.errors[code, default: 0] > errors, "\(code): \(tally)", sourceLocation: sourceLocation
      )
    }
  }

  @discardableResult
  static func expectAgreement(
    _ data: Data, limits: InputLimits = .default, _ place: String, tally: inout Tally,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let read = read(data, limits: limits)
    tally.add(read)
    guard let problem = disagreement(read, oracle(data, limits: limits), data: data, limits: limits)
    else { return true }
    Issue.record(
      "\(place): \(problem)\n\(String(decoding: data, as: UTF8.self).debugDescription)",
      sourceLocation: sourceLocation)
    return false
  }

  // MARK: The comparison can fail

  @Test("the comparison tells a different snapshot, code, field or reason apart")
  func comparisonCanFail() {
    let data = Data()
    let one = SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1))
    var other = one
    other.stacks = ["main": []]
    #expect(Self.disagreement(.success(one), .success(one), data: data) == nil)
    #expect(Self.disagreement(.success(one), .success(other), data: data) != nil)
    #expect(Self.disagreement(.success(one), .failure(.missingField("format")), data: data) != nil)
    #expect(
      Self.disagreement(
        .failure(.missingField("format")), .failure(.missingField("savedAt")), data: data)
        != nil)
    #expect(
      Self.disagreement(
        .failure(.invalidField("format", reason: "expected a number, found a string")),
        .failure(.invalidField("format", reason: "expected a number, found bool")), data: data)
        != nil)
    #expect(
      Self.disagreement(
        .failure(.malformedJSON("a")), .failure(.missingField("format")), data: data)
        != nil)
    #expect(
      Self.disagreement(.failure(.malformedJSON("a")), .failure(.malformedJSON("b")), data: data)
        == nil)
  }

  @Test("the oracle is JSONDecoder's reading: the first of duplicate keys, integer stack names")
  func oracleReadsAsJSONDecoder() throws {
    let saved = #""savedAt":"2027-01-15T08:00:00Z""#
    let first = try SnapshotDocumentOracle.decode(
      Data(#"{"format":1,"routeSchemaVersion":3,"routeSchemaVersion":4,\#(saved)}"#.utf8))
    #expect(first.metadata.routeSchemaVersion == 3)
    #expect(
      throws: SnapshotFormatError.missingField("stacks[2][0].tag"),
      performing: {
        try SnapshotDocumentOracle.decode(
          Data(#"{"format":1,\#(saved),"stacks":{"2":[{"json":"1"}]}}"#.utf8))
      })
  }

  // MARK: Documents

  static let saved = #""savedAt":"2027-01-15T08:00:00Z""#

  /// Documents at the edges of the format; each must read as `JSONDecoder` reads it.
  static let variants: [String] = [
    #"{"format":1,\#(saved)}"#,
    " \n{ \"format\" : 1 ,\t\(saved) } \r\n",
    #"{"format":1,\#(saved),"stacks":null,"selectedTab":null,"split":null,"sheet":null,"appBuild":null,"routeSchemaVersion":null}"#,
    #"{"format":1,\#(saved),"future":{"a":[1,2.5,-3e10,true,false,null,"x"]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t","json":"1","version":null,"extra":1}]}}"#,
    #"{"format":1,\#(saved),"split":{"columnVisibility":null,"x":{}}}"#,
    #"{"format":1,\#(saved),"st\u0061cks":{"a":[{"tag":"t","json":"1"}]}}"#,
    #"{"format":1,\#(saved),"format":1}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[],"a":[{"tag":"t","json":"1"}]}}"#,
    #"{"format":1,\#(saved),}"#,
    "\u{FEFF}{\"format\":1,\(saved)}",
    #"{"format":1.0,\#(saved)}"#,
    #"{"format":1e0,\#(saved)}"#,
    #"{"format":01,\#(saved)}"#,
    #"{"format":2,\#(saved)}"#,
    #"{"format":0,\#(saved)}"#,
    #"{"format":-1,\#(saved)}"#,
    #"{"format":1,"routeSchemaVersion":999999999999999999,\#(saved)}"#,
    #"{"format":9999999999999999999,\#(saved)}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t","json":"1","version":-99999999999999999999}]}}"#,
    #"{"format":1,"routeSchemaVersion":0,\#(saved)}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t","json":"1","version":0}]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t","json":"\ud800"}]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t","json":"\ud83d\ude00"}]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t","json":"\x"}]}}"#,
    "{\"format\":1,\(saved),\"appBuild\":\"a\u{01}b\"}",
    #"{"format":1,\#(saved),"future":1e400}"#,
    #"{"format":1,\#(saved),"future":123456789012345678901234567890}"#,
    #"{"format":1,\#(saved),"future":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
    #"{"format":1}"#,
    #"{"format":1,"savedAt":"yesterday"}"#,
    #"{"format":1,"savedAt":"2027-02-30T08:00:00Z"}"#,
    #"{"format":1,"savedAt":null}"#,
    #"{"format":"1",\#(saved)}"#,
    #"{"format":1,\#(saved),"stacks":[]}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":"t"}]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[{"tag":1,"json":"1"}]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":[null]}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":null}}"#,
    #"{"format":1,\#(saved),"stacks":{"a":{}}}"#,
    #"{"format":1,\#(saved),"stacks":{"b":[{"tag":1}],"a":[{"json":"1"}]}}"#,
    #"{"format":1,\#(saved),"stacks":{"2":[{"json":"1"}],"+2":[5]}}"#,
    #"{"format":1,\#(saved),"stacks":{"\u00e9":[],"e\u0301":[5]}}"#,
    #"{"format":1,\#(saved),"selectedTab":5}"#,
    #"{"format":1,\#(saved),"split":{"columnVisibility":5}}"#,
    #"{"format":1,\#(saved),"split":{"sidebar":{"tag":"t","json":"1","version":1.5}}}"#,
    #"{"format":1,\#(saved),"split":{"content":[]}}"#,
    #"{"format":1,\#(saved),"sheet":{"tag":"t","json":true}}"#,
    #"{"format":1,\#(saved),"appBuild":false}"#,
    #"{"format":1,\#(saved),"\q":1}"#,
    #"{"format":1,\#(saved),"stacks":{"\q":[]}}"#,
    #"{"format":true,\#(saved)}"#,
    #"{"format":1,"savedAt":5}"#,
    #"{"format":1,\#(saved)} x"#,
    #"{"format":1,\#(saved)"#,
    "[]", "null", "1", #""x""#, "", "{", "{}",
    "{\"format\":1,\(saved),\"appBuild\":\"é 😀\"}",
  ]

  @Test("every variant reads as JSONDecoder reads it: the same snapshot or the same error")
  func variantsAgree() {
    var documents = Self.variants.map { Data($0.utf8) }
    // Bytes that are not UTF-8, in a string and outside; the text in UTF-16.
    documents.append(
      Data(#"{"format":1,\#(Self.saved),"appBuild":""#.utf8) + [0xC3, 0x28] + Data(#""}"#.utf8))
    documents.append(
      Data(#"{"format":1,\#(Self.saved),"appBuild":""#.utf8) + [0xED, 0xA0, 0x80]
        + Data(#""}"#.utf8))
    documents.append(
      Data(#"{"format":1,\#(Self.saved),"future":""#.utf8) + [0xFF] + Data(#""}"#.utf8))
    documents.append(Data([0x7B, 0xFF, 0xFE, 0x7D]))
    documents.append(
      Data(#"{"format":1,\#(Self.saved)}"#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }))
    var tally = Tally()
    for (index, document) in documents.enumerated() {
      Self.expectAgreement(document, "variant \(index)", tally: &tally)
    }
    Self.expectVariety(
      tally, read: 10, errors: 0,
      of: ["missingField", "invalidField", "malformedJSON", "newerFormat"])
  }

  @Test("limits: over the size or nesting limit, refused as the oracle refuses it")
  func limits() {
    let limits = InputLimits(maxDocumentBytes: 60, maxPayloadBytes: 60, maxNestingDepth: 2)
    var tally = Tally()
    for text in [
      #"{"format":1,\#(Self.saved),"stacks":{"a":[]}}"#,
      #"{"format":1,\#(Self.saved)}"#,
      #"{"format":1,\#(Self.saved),"x":"................................"}"#,
      #"{"x":[[1]]}"#, #"{"x":[[1]],]"#, #"{"x":[[1]"#, #"{"x":[1],"y":"[[["}"#,
    ] {
      Self.expectAgreement(Data(text.utf8), limits: limits, text, tally: &tally)
    }
    #expect(
      tally.errors["tooLarge", default: 0] > 0 && tally.errors["nestingTooDeep", default: 0] > 0)
  }

  /// A random snapshot of awkward texts, as the writer's tests make them.
  static func snapshot(_ generator: inout SplitMix64) -> SceneSnapshot {
    SnapshotWriterTests().randomSnapshot(&generator)
  }

  @Test("what Waypoint writes reads back as written, and as JSONDecoder reads it")
  func written() throws {
    var generator = SplitMix64(state: 7)
    var tally = Tally()
    for iteration in 0..<400 {
      let snapshot = Self.snapshot(&generator)
      let document = snapshot.encoded()
      #expect(try SceneSnapshot(decoding: document) == snapshot, "iteration \(iteration)")
      Self.expectAgreement(document, "iteration \(iteration)", tally: &tally)
    }
    #expect(tally.read == 400)
  }

  /// Pieces that damage a document where they land.
  static let pieces: [String] = [
    "{", "}", "[", "]", ",", ":", "\"", "\\", " ", "\n", "0", "1", "-", ".", "e", "null", "true",
    "\"x\"", "[]", "{}", "1.5", "01", "1e400", "\\u", "\\ud800", "\\q", "\u{1}", "é", "\"format\":",
    "\"tag\":", "\"json\":", "\"version\":", "\"stacks\":", "\"savedAt\":", "\"split\":", "2",
  ]

  @Test(
    "documents damaged byte by byte: the same snapshot or the same error",
    arguments: [1, 2, 3] as [UInt64])
  func damaged(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    var tally = Tally()
    for iteration in 0..<1500 {
      var bytes = Array(Self.snapshot(&generator).encoded())
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let at = Int.random(in: 0...bytes.count, using: &generator)
        let piece = Array((Self.pieces.randomElement(using: &generator) ?? "").utf8)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where at < bytes.count: bytes.remove(at: at)
        case 1 where at < bytes.count: bytes.replaceSubrange(at..<(at + 1), with: piece)
        default: bytes.insert(contentsOf: piece, at: at)
        }
      }
      guard Self.expectAgreement(Data(bytes), "seed \(seed) iteration \(iteration)", tally: &tally)
      else { return }
    }
    // Damage must give readable documents and every kind of error, or this proves little.
    Self.expectVariety(
      tally, read: 100, errors: 20, of: ["missingField", "invalidField", "malformedJSON"])
  }

  /// A value of a member, good or of the wrong kind, as JSON text.
  static func value(_ kind: String, _ generator: inout SplitMix64, depth: Int = 0) -> String {
    func pick(_ choices: [String]) -> String { choices.randomElement(using: &generator) ?? "null" }
    let wrong = [
      "null", "true", "5", "1.5", "\"x\"", "[]", "{}", "01", "1e400", "\"\\q\"", "-0", "1e0",
    ]
    if Int.random(in: 0..<12, using: &generator) == 0 { return pick(wrong) }
    switch kind {
    case "int":
      guard Int.random(in: 0..<3, using: &generator) == 0 else { return "1" }
      return pick(["1", "2", "0", "-1", "1.0", "1e0", "9999999999999999999", "3", "10"])
    case "date":
      guard Int.random(in: 0..<3, using: &generator) == 0 else { return #""2027-01-15T08:00:00Z""# }
      return pick([
        "\"2027-01-15T08:00:00Z\"", "\"yesterday\"", "\"2027-02-30T08:00:00Z\"",
        "\"2027-01-15T08:00:00.5Z\"", "\"2027-01-15T08:00:00+02:00\"",
      ])
    case "string":
      guard Int.random(in: 0..<3, using: &generator) == 0 else { return #""x""# }
      return pick([
        "\"x\"", "\"\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud800\"", "\"a\u{1}b\"",
        "\"\\n\\t\\\"\"",
      ])
    case "route":
      var members: [String] = []
      for key in ["tag", "json", "version", "extra"].shuffled(using: &generator)
      where Int.random(in: 0..<(["tag", "json"].contains(key) ? 20 : 2), using: &generator) > 0 {
        members.append(
          "\"\(key)\":" + value(key == "version" ? "int" : "string", &generator, depth: depth + 1))
      }
      return "{" + members.joined(separator: ",") + "}"
    case "stacks":
      var members: [String] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        let name = pick([
          "\"main\"", "\"side\"", "\"2\"", "\"+2\"", "\"\\u00e9\"", "\"e\\u0301\"", "\"\"",
        ])
        let routes = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
          value("route", &generator, depth: depth + 1)
        }
        members.append(name + ":[" + routes.joined(separator: ",") + "]")
      }
      return "{" + members.joined(separator: ",") + "}"
    case "split":
      var members: [String] = []
      for (key, kind) in [
        ("sidebar", "route"), ("content", "route"), ("columnVisibility", "string"),
        ("preferredCompactColumn", "string"),
      ] where Bool.random(using: &generator) {
        members.append("\"\(key)\":" + value(kind, &generator, depth: depth + 1))
      }
      return "{" + members.joined(separator: ",") + "}"
    default:
      return pick(wrong)
    }
  }

  @Test(
    "documents put together from hostile pieces: the same snapshot or the same error",
    arguments: [11, 12, 13] as [UInt64])
  func hostile(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    var tally = Tally()
    let members: [(key: String, kind: String)] = [
      ("format", "int"), ("routeSchemaVersion", "int"), ("appBuild", "string"),
      ("savedAt", "date"), ("stacks", "stacks"), ("selectedTab", "route"), ("split", "split"),
      ("sheet", "route"), ("future", "other"), ("\\u0066ormat", "int"), ("stack\\u0073", "stacks"),
    ]
    for iteration in 0..<1500 {
      var parts: [String] = []
      for (key, kind) in members.shuffled(using: &generator) {
        let chance = ["format", "savedAt"].contains(key) ? 12 : 3
        guard Int.random(in: 0..<chance, using: &generator) > 0 else { continue }
        parts.append("\"\(key)\":" + Self.value(kind, &generator))
        if Int.random(in: 0..<20, using: &generator) == 0 {
          parts.append("\"\(key)\":" + Self.value(kind, &generator))
        }
      }
      let text = "{" + parts.joined(separator: ",") + "}"
      guard
        Self.expectAgreement(Data(text.utf8), "seed \(seed) iteration \(iteration)", tally: &tally)
      else { return }
    }
    Self.expectVariety(
      tally, read: 20, errors: 20,
      of: ["missingField", "invalidField", "malformedJSON", "newerFormat"])
  }
}
