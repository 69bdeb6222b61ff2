import Foundation
import Testing

@testable import Waypoint

/// Encoding into memory kept from one encoding to the next (`DocumentBuffer`, a store's saves)
/// writes the bytes a fresh encoding writes, whatever the buffer held before.
@Suite("Encoding into a kept buffer")
struct DocumentBufferTests {
  @Test("one buffer reused gives each snapshot's bytes, save time and JSON length, in both forms")
  func reusedBufferMatchesFreshEncoding() {
    var generator = SplitMix64(state: 1205)
    let buffer = DocumentBuffer()
    for iteration in 0..<2000 {
      let snapshot = StoredDocumentTests.randomSnapshot(&generator)
      let storedForm = iteration % 3 != 0
      let fresh = snapshot.encodedLocatingSavedAt(storedForm: storedForm)
      let kept = snapshot.encodeLocatingSavedAt(storedForm: storedForm, into: buffer)
      let bytes = buffer.withBytes { Data($0) }
      #expect(bytes == fresh.document, "iteration \(iteration)")
      #expect(buffer.count == fresh.document.count, "iteration \(iteration)")
      #expect(kept.savedAt == fresh.savedAt, "iteration \(iteration)")
      #expect(kept.jsonCount == fresh.jsonCount, "iteration \(iteration)")
    }
  }

  /// A snapshot whose document is `routes` records of a `payload`-byte JSON string.
  static func snapshot(routes: Int, payload: Int) -> SceneSnapshot {
    let record = RouteRecord(
      tag: "App.Route", json: "\"" + String(repeating: "x", count: payload) + "\"")
    return SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 1, appBuild: "1.0", savedAt: Date(timeIntervalSince1970: 0)),
      stacks: ["main": Array(repeating: record, count: routes)])
  }

  @Test("a document larger than the buffer grows it; a smaller one after it is whole and alone")
  func growsAndShrinksInUse() {
    let buffer = DocumentBuffer()
    let large = Self.snapshot(routes: 40, payload: 2_000)
    let small = Self.snapshot(routes: 1, payload: 3)
    for snapshot in [small, large, small, large] {
      _ = snapshot.encodeLocatingSavedAt(storedForm: true, into: buffer)
      #expect(
        buffer.withBytes { Data($0) } == snapshot.encodedLocatingSavedAt(storedForm: true).document)
    }
    #expect(buffer.count > 80_000)
  }

  @Test(
    "memory over the limit is let go, memory under it kept, and a released buffer still encodes")
  func releaseAbove() {
    let buffer = DocumentBuffer()
    let small = Self.snapshot(routes: 2, payload: 10)
    _ = small.encodeLocatingSavedAt(into: buffer)
    buffer.release(above: 64 * 1024)
    #expect(buffer.withBytes { Data($0) } == small.encoded(), "kept: under the limit")
    let large = Self.snapshot(routes: 50, payload: 2_000)
    _ = large.encodeLocatingSavedAt(into: buffer)
    buffer.release(above: 64 * 1024)
    #expect(buffer.count == 0)
    #expect(buffer.withBytes { $0.count } == 0)
    _ = small.encodeLocatingSavedAt(into: buffer)
    #expect(buffer.withBytes { Data($0) } == small.encoded())
  }
}
