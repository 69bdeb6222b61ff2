import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// `import` reads a line with Waypoint's own scanner and reader (`SnapshotLine.parse`): every line
/// must read as its oracle reads it (`SnapshotLineOracle`, through `JSONValue`), and the lines
/// `export` writes must read back as written.
@Suite("waypoint import: reading a line agrees with its oracle")
struct LineReadingTests {
  static let document = String(
    decoding: SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 2, appBuild: "3.1 (512) \"β\"",
        savedAt: Date(timeIntervalSince1970: 1_800_000_000)),
      stacks: ["main": [RouteRecord(tag: "T", json: #"{"id":1,"name":"é\""}"#)]]
    ).encoded(), as: UTF8.self)

  static func line(
    id: String = "7", scene: String = "scene-1", savedAt: String = "2027-01-15T08:00:00Z",
    quarantine: String = "null", document: String = document, end: String = "}"
  ) -> String {
    #"{"id":\#(id),"scene":"\#(scene)","savedAt":"\#(savedAt)","quarantine":\#(quarantine),"document":\#(document)\#(end)"#
  }

  /// Why the reader's outcome is not the oracle's, or `nil` when they agree: the same scene,
  /// metadata, quarantine (its time when the line gives one) and document, or both refusing the
  /// line for the same reason (a line that is not JSON, or not UTF-8, is refused either way; the
  /// reader names the place).
  static func disagreement(
    _ read: Result<SnapshotLine.Parsed, SnapshotLine.Problem>,
    _ oracle: Result<SnapshotLine.Parsed, SnapshotLine.Problem>
  ) -> String? {
    switch (read, oracle) {
    case (.success(let mine), .success(let theirs)):
      let sameMark =
        mine.quarantine?.kind == theirs.quarantine?.kind
        && mine.quarantine?.detail == theirs.quarantine?.detail
        && (theirs.quarantine?.since == Date(timeIntervalSince1970: 0)
          || mine.quarantine?.since == theirs.quarantine?.since)
      guard mine.scene == theirs.scene, mine.metadata == theirs.metadata, sameMark,
        mine.document == theirs.document
      else { return "read \(mine), the oracle \(theirs)" }
      return nil
    case (.failure(let mine), .failure(let theirs)):
      let notJSON = ["not valid JSON", "not UTF-8 text", "document: malformed JSON"]
      if notJSON.contains(where: mine.message.hasPrefix),
        notJSON.contains(where: theirs.message.hasPrefix)
      {
        return nil
      }
      return mine == theirs ? nil : "refused: \(mine.message); the oracle: \(theirs.message)"
    case (.success(let mine), .failure(let theirs)):
      return "read \(mine), the oracle refused it: \(theirs.message)"
    case (.failure(let mine), .success(let theirs)):
      return "refused (\(mine.message)), the oracle read \(theirs)"
    }
  }

  static func read(_ line: Data, limits: InputLimits = .default)
    -> Result<SnapshotLine.Parsed, SnapshotLine.Problem>
  {
    Result { () throws(SnapshotLine.Problem) in try SnapshotLine.parse(line, limits: limits) }
  }

  static func oracle(_ line: Data, limits: InputLimits = .default)
    -> Result<SnapshotLine.Parsed, SnapshotLine.Problem>
  {
    Result { () throws(SnapshotLine.Problem) in
      try SnapshotLineOracle.parse(line, limits: limits)
    }
  }

  static let variants: [String] = [
    line(),
    line(id: "0"), line(id: "12345678901234567"), line(id: "123456789012345678"), line(id: "07"),
    line(id: "-1"), line(id: "1.5"), line(id: "1e3"), line(id: ""), line(id: "\"7\""),
    line(scene: ""), line(scene: "a\\\"b"), line(scene: "a\\u0041"), line(scene: "caf\u{E9}"),
    line(scene: "tab\there"), line(scene: "del\u{7F}"), line(scene: "\u{85}x"),
    line(scene: String(repeating: "s", count: 1024)),
    line(scene: String(repeating: "s", count: 1025)),
    line(scene: "'; DROP TABLE snapshot; --"), line(scene: "~!@#$%^&*()_+{}|:<>?`-=[];',./ "),
    line(savedAt: ""), line(savedAt: "x"), line(savedAt: "a\\nb"), line(savedAt: "é"),
    line(savedAt: "\u{1}"),
    line(quarantine: #"{"kind":"crash-loop","detail":"d","since":null}"#),
    line(quarantine: "nul"),
    line(document: #"{"format":1}"#),
    line(document: document.replacingOccurrences(of: #""format":1"#, with: #""format":2"#)),
    line(document: " " + document), line(document: document + " "),
    line(end: ""), line(end: "} "), line(end: "}}"), line(end: ",\"x\":1}"),
    line(end: "}\r"), line(end: ",\"id\":8}"),
    #"{"scene":"s","id":7,"savedAt":"x","quarantine":null,"document":\#(document)}"#,
    #"{"id":7,"scene":"s","savedAt":"x","quarantine":null,"document":\#(document),"scene":"t"}"#,
    #"{"id":7, "scene":"s","savedAt":"x","quarantine":null,"document":\#(document)}"#,
    "{\"id\":7,\"scene\":\"s\"",
    "",
  ]

  @Test("every variant reads as the oracle reads it", arguments: variants.indices)
  func variantsAgree(index: Int) {
    let line = Data(Self.variants[index].utf8)
    for limits in [
      InputLimits.default, InputLimits(maxNestingDepth: 5), InputLimits(maxNestingDepth: 3),
    ] {
      if let problem = Self.disagreement(
        Self.read(line, limits: limits), Self.oracle(line, limits: limits))
      {
        Issue.record("\(Self.variants[index].debugDescription): \(problem)")
      }
    }
  }

  @Test("lines damaged byte by byte read as the oracle reads them", arguments: [1, 2] as [UInt64])
  func damaged(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    let pieces = [
      "{", "}", "[", "]", ",", ":", "\"", "\\", " ", "0", "-", ".", "null", "\"x\"", "1e400",
      "\\q", "\u{1}", "é", "\"scene\":", "\"document\":", "\"quarantine\":", "\"kind\":",
    ]
    var read = 0
    var refused = 0
    for iteration in 0..<1500 {
      var bytes = Array(Self.line().utf8)
      for _ in 0..<Int.random(in: 1...2, using: &generator) {
        let at = Int.random(in: 0...bytes.count, using: &generator)
        let piece = Array((pieces.randomElement(using: &generator) ?? "").utf8)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where at < bytes.count: bytes.remove(at: at)
        case 1 where at < bytes.count: bytes.replaceSubrange(at..<(at + 1), with: piece)
        default: bytes.insert(contentsOf: piece, at: at)
        }
      }
      let outcome = Self.read(Data(bytes))
      if case .success = outcome { read += 1 } else { refused += 1 }
      if let problem = Self.disagreement(outcome, Self.oracle(Data(bytes))) {
        Issue.record(
          "seed \(seed) iteration \(iteration): \(String(decoding: bytes, as: UTF8.self)): \(problem)"
        )
        return
      }
    }
    // Both outcomes must come up, or the comparison proves little.
    #expect(read > 100 && refused > 100, "\(read) read, \(refused) refused")
  }

  @Test("the comparison tells a different reading or a different refusal apart")
  func comparisonCanFail() throws {
    let line = Data(Self.line().utf8)
    let parsed = try SnapshotLine.parse(line, limits: .default)
    var other = parsed
    other.scene = "other"
    #expect(Self.disagreement(.success(parsed), .success(parsed)) == nil)
    #expect(Self.disagreement(.success(parsed), .success(other)) != nil)
    #expect(
      Self.disagreement(.success(parsed), .failure(SnapshotLine.Problem(message: "x"))) != nil)
    #expect(
      Self.disagreement(
        .failure(SnapshotLine.Problem(message: "a line must be a JSON object")),
        .failure(SnapshotLine.Problem(message: #""scene" must be a string"#))) != nil)
  }

  @Test("a line read from its bytes reads as one read from a Data", arguments: variants.indices)
  func bytesAsData(index: Int) {
    let line = Data(Self.variants[index].utf8)
    func outcome(_ read: () throws(SnapshotLine.Problem) -> SnapshotLine.Parsed) -> String {
      do throws(SnapshotLine.Problem) {
        let parsed = try read()
        return "\(parsed.scene) \(parsed.metadata) \(String(describing: parsed.quarantine)) "
          + parsed.document.base64EncodedString()
      } catch {
        return error.message
      }
    }
    let fromData = outcome { () throws(SnapshotLine.Problem) in
      try SnapshotLine.parse(line, limits: .default)
    }
    let fromBytes = line.withUnsafeBytes { bytes in
      outcome { () throws(SnapshotLine.Problem) in try SnapshotLine.parse(bytes, limits: .default) }
    }
    #expect(fromData == fromBytes)
  }

  @Test("lines export writes read back as written")
  func exportLines() throws {
    for index in 0..<300 {
      var snapshot = SceneSnapshot(
        metadata: SnapshotMetadata(
          routeSchemaVersion: 1 + index % 3, appBuild: index % 4 == 0 ? nil : "b\\\(index)é",
          savedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 3_601))))
      snapshot.stacks["main"] = (0..<(index % 5)).map {
        RouteRecord(tag: "T\($0)", json: #"{"n":\#($0),"s":"\u{2028}\\\#(index)"}"#)
      }
      let document = snapshot.encoded()
      let scene = "scene-\(index)-\(String(repeating: "x", count: index % 40))"
      let encoded = SnapshotLine.encode(
        id: Int64(index * 99_991), scene: scene, savedAt: snapshot.metadata.savedAt,
        quarantine: nil, document: document)
      let line = encoded.dropLast()
      let read = try SnapshotLine.parse(Data(line), limits: .default)
      #expect(read.document == document && read.scene == scene)
      #expect(read.metadata == snapshot.metadata)
      #expect(Self.disagreement(.success(read), Self.oracle(Data(line))) == nil)
    }
  }
}
