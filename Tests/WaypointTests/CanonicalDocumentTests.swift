import Foundation
import Testing

@testable import Waypoint

/// `export` and `import` take a document recognised by ``CanonicalDocument`` as it is, without
/// decoding and encoding it: what it recognises must read to a snapshot that encodes back to the
/// same bytes, and every document ``SceneSnapshot/encoded()`` writes must be recognised.
@Suite("Canonical documents recognised on their bytes")
struct CanonicalDocumentTests {
  static let names = [
    "main", "detail", "Tab 1", "a", "Z", "tab-2", "_x", "é", "e\u{301}x", "日本", "🎈", "q\"", "\u{1}",
  ]

  func randomSnapshot(_ generator: inout SplitMix64) -> SceneSnapshot {
    var snapshot = SnapshotWriterTests().randomSnapshot(&generator)
    var stacks: [String: [RouteRecord]] = [:]
    for (index, records) in snapshot.stacks.values.enumerated() {
      stacks[Self.names.randomElement(using: &generator)! + String(index)] = records
    }
    snapshot.stacks = stacks
    return snapshot
  }

  /// What reading `data` gives, when `CanonicalDocument` recognises it: checked against the slow
  /// reading. Returns whether it was recognised.
  @discardableResult
  func checkRecognition(_ data: Data, _ place: String) -> Bool {
    data.withUnsafeBytes { bytes in
      guard let canonical = CanonicalDocument(bytes, at: 0, limits: .default) else { return false }
      guard canonical.end == bytes.count else {
        // Recognised as a document followed by something else: the prefix must hold on its own.
        checkRecognition(Data(data.prefix(canonical.end)), place + " (prefix)")
        return true
      }
      guard let snapshot = try? SceneSnapshot(decoding: data) else {
        Issue.record(
          "\(place): recognised but unreadable: \(String(decoding: data, as: UTF8.self))")
        return true
      }
      #expect(snapshot.encoded() == data, "\(place): \(String(decoding: data, as: UTF8.self))")
      #expect(snapshot.metadata.savedAt == canonical.savedAt, "\(place)")
      #expect(snapshot.metadata.routeSchemaVersion == canonical.routeSchemaVersion, "\(place)")
      #expect(
        snapshot.metadata.appBuild
          == canonical.appBuild.map { CanonicalDocument.string(bytes, $0) },
        "\(place)")
      let payloads = canonical.payloads.map { CanonicalDocument.string(bytes, $0) }
      #expect(payloads.sorted() == snapshot.routes.map(\.1.json).sorted(), "\(place)")
      return true
    }
  }

  @Test("every document encoded() writes is recognised, with its metadata and payloads")
  func encodedDocuments() {
    var generator = SplitMix64(state: 77)
    for iteration in 0..<400 {
      let snapshot = randomSnapshot(&generator)
      let written = snapshot.encoded()
      #expect(
        checkRecognition(written, "iteration \(iteration)"), "iteration \(iteration) unrecognised")
    }
  }

  @Test("a document changed anywhere is recognised only when it still reads back to its bytes")
  func mutatedDocuments() {
    var generator = SplitMix64(state: 78)
    let replacements: [[UInt8]] = [
      [], [0x20], Array("\\/".utf8), Array("\\u0041".utf8), Array("\\u001F".utf8),
      Array("\\u001f".utf8), Array("\\u000a".utf8), Array("1".utf8), Array("0".utf8),
      Array("-1".utf8), Array("\"".utf8), Array(",".utf8), Array("}".utf8), [0xC3], [0xC3, 0xA9],
      [0xED, 0xA0, 0x80], Array("\"version\":1,".utf8), Array("\"x\":1,".utf8), [0x7F], [0x00],
      Array("2".utf8), Array("9".utf8), Array("e".utf8), Array("\\\"".utf8),
    ]
    var recognised = 0
    for iteration in 0..<3000 {
      var bytes = Array(randomSnapshot(&generator).encoded())
      for _ in 0..<Int.random(in: 1...2, using: &generator) {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        let length = Int.random(in: 0...2, using: &generator)
        let end = min(bytes.count, at + length)
        bytes.replaceSubrange(at..<end, with: replacements.randomElement(using: &generator)!)
      }
      if checkRecognition(Data(bytes), "mutation \(iteration)") { recognised += 1 }
    }
    // Some mutations keep a document canonical (a changed letter in a string); most do not.
    #expect(recognised > 0)
  }

  @Test(
    "documents that read the same but are written otherwise are not recognised",
    arguments: [
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{}} "#,
      #"{"format":1, "routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#,
      #"{"routeSchemaVersion":1,"format":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z"}"#,
      #"{"format":1,"routeSchemaVersion":01,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#,
      #"{"format":2,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#,
      #"{"format":1,"routeSchemaVersion":0,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00+00:00","stacks":{}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-02-30T12:00:00Z","stacks":{}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"b":[],"a":[]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"a":[],"a":[]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"é":[],"e\u0301":[]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"a":[{"json":"1","tag":"T","version":1}]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"a":[{"tag":"T","json":"1"}]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"a":[{"json":"\/","tag":"T"}]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"a":[{"json":"\u0041","tag":"T"}]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{"a":[{"json":"\u000a","tag":"T"}]}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","split":{"content":null,"columnVisibility":"all"},"stacks":{}}"#,
      #"{"appBuild":null,"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#,
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{},"x":1}"#,
    ])
  func notCanonical(text: String) {
    let data = Data(text.utf8)
    let recognised = data.withUnsafeBytes { bytes in
      CanonicalDocument(bytes, at: 0, limits: .default).map { $0.end == bytes.count } ?? false
    }
    #expect(!recognised)
  }

  @Test("every byte at every place of a string is judged as what it means")
  func everyByteInEveryPlace() {
    // A byte that must stop the scan of a string (a quote, a backslash, a control character, a
    // byte of a multi-byte sequence) is tried at each of 17 places of the app build, among plain
    // letters, and the recognition must be what the bytes mean.
    let head = #"{"appBuild":""#
    let tail = #"","format":1,"routeSchemaVersion":1,"savedAt":"2026-11-29T12:00:00Z","stacks":{}}"#
    for byte in UInt8.min...UInt8.max {
      for offset in 0..<17 {
        var text = Array(head.utf8) + Array(repeating: UInt8(ascii: "a"), count: offset)
        text.append(byte)
        text += Array(repeating: UInt8(ascii: "x"), count: 17 - offset) + Array(tail.utf8)
        let data = Data(text)
        let recognised = data.withUnsafeBytes { bytes in
          CanonicalDocument(bytes, at: 0, limits: .default).map { $0.end == bytes.count } ?? false
        }
        // Printable ASCII but the quote and the backslash stays a plain string; nothing else
        // alone is canonical (a quote ends the string early, a backslash escapes the next
        // letter, a lone byte above 0x7F is not UTF-8).
        let plain = byte >= 0x20 && byte < 0x80 && byte != 0x22 && byte != 0x5C
        #expect(recognised == plain, "byte \(byte) at offset \(offset)")
        if recognised { checkRecognition(data, "byte \(byte) at offset \(offset)") }
      }
    }
  }

  @Test("the limits are kept: a document over the size limit is not recognised")
  func limits() {
    let data = SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1)).encoded()
    data.withUnsafeBytes { bytes in
      #expect(CanonicalDocument(bytes, at: 0, limits: .default) != nil)
      #expect(
        CanonicalDocument(bytes, at: 0, limits: InputLimits(maxDocumentBytes: bytes.count - 1))
          == nil)
      #expect(CanonicalDocument(bytes, at: 0, limits: InputLimits(maxNestingDepth: 3)) == nil)
    }
  }

  @Test(
    "stack names are canonical in the order of their UTF-8 bytes, and never two names that String takes for one"
  )
  func stackNameOrder() throws {
    func document(_ names: [String]) -> Data {
      let members = names.map { "\"\($0)\":[]" }.joined(separator: ",")
      return Data(
        (#"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-01-01T00:00:00Z","stacks":{"#
          + members + "}}").utf8)
    }
    func recognised(_ data: Data) -> Bool {
      data.withUnsafeBytes { CanonicalDocument($0, at: 0, limits: .default) != nil }
    }
    // In byte order (what the writer and JSONEncoder give), recognised and read back to the bytes;
    // in String's order where that differs, not.
    let ordered = ["10e\u{301}", "10\u{E9}9", "Z", "a", "z", "\u{E9}", "\u{FF5E}", "🎈"]
    #expect(recognised(document(ordered)))
    checkRecognition(document(ordered), "byte order")
    let snapshot = try SceneSnapshot(decoding: document(ordered))
    #expect(snapshot.encoded() == document(ordered))
    #expect(!recognised(document(["10\u{E9}9", "10e\u{301}"])))
    #expect(!recognised(document(["a", "Z"])))
    // Increasing bytes, but one name for String: a dictionary keeps one stack of the two.
    #expect(!recognised(document(["K", "\u{212A}"])))
    #expect(!recognised(document(["e\u{301}", "e\u{301}x", "\u{E9}"])))
    #expect(!recognised(document(["A", "a", "q", "\u{C5}", "\u{212B}"])))
    #expect(recognised(document(["A", "a", "q", "\u{C5}"])))
  }
}
