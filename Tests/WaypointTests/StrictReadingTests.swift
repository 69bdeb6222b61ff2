import Foundation
import Testing
import Waypoint

/// `SceneSnapshot(reading:)` (the tools' fast read) against `SceneSnapshot(decoding:)`: the same
/// snapshot or the same error for every document, and the fast way taken for what Waypoint writes.
@Suite("Strict reading of snapshot documents agrees with JSONDecoder")
struct StrictReadingTests {
  static let date = Date(timeIntervalSince1970: 1_800_000_000)

  static let snapshots: [SceneSnapshot] = [
    SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1, savedAt: date)),
    SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 3, appBuild: "3.1 (512) ü \"q\"", savedAt: date),
      stacks: [
        "shop": [
          RouteRecord(tag: "Shop.Route", json: #"{"product":{"id":1,"variant":"blue\/42"}}"#),
          RouteRecord(
            tag: "Shop.Route", json: "{\"note\":\"tab\\t, newline\\n, \u{1F600}, é\"}", version: 4),
        ],
        "": [],
        "ä stack": [RouteRecord(tag: "Swift.String", json: "\"\\u0000 \\u001f\"")],
      ],
      selectedTab: RouteRecord(tag: "Swift.String", json: #""shop""#),
      split: SplitViewSnapshot(
        sidebarSelection: RouteRecord(tag: "S", json: "1"),
        contentSelection: RouteRecord(tag: "C", json: "null", version: 2),
        columnVisibility: .doubleColumn, preferredCompactColumn: .content),
      sheet: RouteRecord(tag: "Sheet", json: "[]")),
    SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1, savedAt: date),
      split: SplitViewSnapshot(columnVisibility: ColumnVisibility(rawValue: "future"))),
  ]

  @Test("what Waypoint writes is read the fast way, to the same snapshot")
  func waypointDocuments() throws {
    for snapshot in Self.snapshots {
      let document = snapshot.encoded()
      let fast = try #require(
        SceneSnapshot.strictlyRead(document, limits: .default, unknownKeys: false))
      #expect(fast == (try SceneSnapshot(decoding: document)))
      #expect(fast == snapshot)
    }
  }

  static let saved = #""savedAt":"2027-01-15T08:00:00Z""#

  /// Documents at and beyond the strict subset; each must read as `JSONDecoder` reads it.
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
    // Integers of 18, 19 and 20 digits: read whole, past Int.max, far past it (never a trap).
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
    #"{"format":1,\#(saved)} x"#,
    #"{"format":1,\#(saved)"#,
    "[]",
    "",
    "{\"format\":1,\(saved),\"appBuild\":\"é 😀\"}",
  ]

  @Test("every variant reads as JSONDecoder reads it: the same snapshot or the same error")
  func variantsAgree() {
    var documents = Self.variants.map { Data($0.utf8) }
    // Bytes that are not UTF-8, in a string and outside.
    documents.append(
      Data(#"{"format":1,\#(Self.saved),"appBuild":""#.utf8) + [0xC3, 0x28] + Data(#""}"#.utf8))
    documents.append(
      Data(#"{"format":1,\#(Self.saved),"appBuild":""#.utf8) + [0xED, 0xA0, 0x80]
        + Data(#""}"#.utf8))
    for document in documents {
      let slow = Result { () throws(SnapshotFormatError) in try SceneSnapshot(decoding: document) }
      for unknownKeys in [true, false] {
        let fast = Result { () throws(SnapshotFormatError) in
          try SceneSnapshot(reading: document, unknownKeys: unknownKeys)
        }
        #expect(fast == slow, "\(String(decoding: document, as: UTF8.self))")
        // The fast way answers only where JSONDecoder reads a snapshot.
        if let strict = SceneSnapshot.strictlyRead(
          document, limits: .default, unknownKeys: unknownKeys)
        {
          #expect(slow == .success(strict), "\(String(decoding: document, as: UTF8.self))")
        }
      }
    }
  }

  @Test("limits: a document over the size or nesting limit is refused as JSONDecoder's way does")
  func limits() {
    let limits = InputLimits(maxDocumentBytes: 60, maxPayloadBytes: 60, maxNestingDepth: 2)
    for text in [
      #"{"format":1,\#(Self.saved),"stacks":{"a":[]}}"#,
      #"{"format":1,\#(Self.saved)}"#,
      #"{"format":1,\#(Self.saved),"x":"................................"}"#,
    ] {
      let document = Data(text.utf8)
      let slow = Result { () throws(SnapshotFormatError) in
        try SceneSnapshot(decoding: document, limits: limits)
      }
      let fast = Result { () throws(SnapshotFormatError) in
        try SceneSnapshot(reading: document, limits: limits)
      }
      #expect(fast == slow, "\(text)")
    }
  }

  @Test("isObject says yes only to what JSONValue reads as an object")
  func isObject() {
    var texts =
      Self.variants + [
        "{}", " { } ", #"{"a":"\u00e9"}"#, #"{"a":[1,{"b":null}]}"#, #"{"a":-0.5e-3}"#, "1",
        #""x""#,
        #"{"a":1,"a":2}"#, #"{"a":"\q"}"#,
      ]
    texts += Self.snapshots.map { String(decoding: $0.encoded(), as: UTF8.self) }
    for text in texts {
      let data = Data(text.utf8)
      guard StrictJSONReader.isObject(data, maxDepth: 32) else { continue }
      let value = try? JSONValue(parsing: text)
      #expect(value?.objectValue != nil, "\(text)")
    }
    for snapshot in Self.snapshots {
      #expect(StrictJSONReader.isObject(snapshot.encoded(), maxDepth: 32))
    }
  }
}
