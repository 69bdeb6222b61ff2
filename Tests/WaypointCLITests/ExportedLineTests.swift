import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// `import` takes a line exactly as `export` writes it without a quarantine on its bytes
/// (`SnapshotLine.exportedLine`): whatever it takes, the strict reading of the line's members must
/// give the same, and the lines `export` writes must be taken.
@Suite("waypoint import: a line as export writes it, read on its bytes")
struct ExportedLineTests {
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

  /// Whether two readings of a line are the same.
  static func same(_ a: SnapshotLine.Parsed, _ b: SnapshotLine.Parsed) -> Bool {
    a.scene == b.scene && a.metadata == b.metadata && a.quarantine == b.quarantine
      && a.document == b.document
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

  @Test("every line it takes reads the same the strict way", arguments: variants.indices)
  func sameAsStrict(index: Int) throws {
    let line = Data(Self.variants[index].utf8)
    for limits in [
      InputLimits.default, InputLimits(maxNestingDepth: 5), InputLimits(maxNestingDepth: 4),
    ] {
      guard let fast = SnapshotLine.exportedLine(line, limits: limits) else { continue }
      let strict = try #require(SnapshotLine.strictlyParsed(line, limits: limits))
      #expect(Self.same(fast, strict))
    }
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

  @Test("the plain lines of the variants are taken, the others are not")
  func takesWhatExportWrites() {
    let taken = Self.variants.map {
      SnapshotLine.exportedLine(Data($0.utf8), limits: .default) != nil
    }
    #expect(taken.prefix(3) == [true, true, true])
    #expect(taken.filter { $0 }.count == 8)
    #expect(
      SnapshotLine.exportedLine(Data(Self.line().utf8), limits: InputLimits(maxNestingDepth: 4))
        == nil)
  }

  @Test("lines export writes are taken, and read as the strict way reads them")
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
      let fast = try #require(SnapshotLine.exportedLine(Data(line), limits: .default))
      let strict = try #require(SnapshotLine.strictlyParsed(Data(line), limits: .default))
      #expect(Self.same(fast, strict))
      #expect(fast.document == document && fast.scene == scene)
      #expect(fast.metadata == snapshot.metadata)
    }
  }
}
