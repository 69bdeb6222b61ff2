import Foundation
import Testing

@testable import Waypoint

@Suite("Telling an unchanged snapshot without encoding it (encodesLike)")
struct SameDocumentTests {
  let date = Date(timeIntervalSince1970: 1_800_000_000)

  func snapshot(_ jsons: [String], build: String = "1.0 (1)") -> SceneSnapshot {
    SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 3, appBuild: build, savedAt: date),
      stacks: [
        "main": jsons.map { RouteRecord(tag: "App.Route", json: $0) },
        "account": [RouteRecord(tag: "App.Route", json: #"{"settings":{}}"#)],
      ],
      selectedTab: RouteRecord(tag: "Swift.String", json: #""main""#))
  }

  @Test("a copy with a later save time, sharing every storage, is unchanged")
  func copyIsUnchanged() {
    let saved = snapshot([#"{"item":{"id":1}}"#, #"{"item":{"id":2}}"#])
    var again = saved
    again.metadata.savedAt = date + 60
    #expect(again.encodesLike(saved))
    #expect(again.encoded() != saved.encoded())
  }

  @Test("a copy changed in one place is changed, wherever the change is")
  func changedCopyIsChanged() {
    let saved = snapshot([#"{"item":{"id":1}}"#, #"{"item":{"id":2}}"#])
    var changes: [(String, (inout SceneSnapshot) -> Void)] = [
      ("a record's json", { $0.stacks["main"]?[1].json = #"{"item":{"id":3}}"# }),
      ("a record's tag", { $0.stacks["account"]?[0].tag = "App.Other" }),
      ("a record's version", { $0.stacks["main"]?[0].version = 2 }),
      ("a record added", { $0.stacks["main"]?.append(RouteRecord(tag: "App.Route", json: "1")) }),
      ("a stack renamed", { $0.stacks["Main"] = $0.stacks.removeValue(forKey: "main") }),
      ("the selected tab", { $0.selectedTab = nil }),
      ("the build", { $0.metadata.appBuild = "1.0 (2)" }),
      ("the schema version", { $0.metadata.routeSchemaVersion = 4 }),
    ]
    changes.append(("a sheet", { $0.sheet = RouteRecord(tag: "App.Route", json: "1") }))
    for (name, change) in changes {
      var changed = saved
      change(&changed)
      #expect(!changed.encodesLike(saved), "\(name)")
      #expect(changed.encoded() != saved.encoded(), "\(name)")
    }
  }

  @Test("snapshots built apart from equal text are unchanged; NFC and NFD spellings are not")
  func builtApart() {
    let nfc = snapshot([#"{"city":"caf\#u{E9}"}"#])
    let again = snapshot([#"{"city":"caf\#u{E9}"}"#])
    #expect(again.encodesLike(nfc))
    let nfd = snapshot([#"{"city":"cafe\#u{301}"}"#])
    #expect(nfd.stacks == nfc.stacks)
    #expect(!nfd.encodesLike(nfc))
    #expect(nfd.encoded() != nfc.encoded())
  }
}
