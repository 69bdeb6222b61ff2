import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

@Suite("Scene ids: one rule, compared as bytes")
struct SceneIDTests {
  let directory = TemporaryDirectory()

  @Test(
    "save refuses ids that break the rule and writes nothing",
    arguments: [
      "", "a\0b", "a\0", "tab\there", "\u{7F}", "\u{85}", String(repeating: "x", count: 1025),
    ])
  func refused(id: String) throws {
    let store = try SnapshotStore(path: directory.path())
    #expect {
      try store.save(try snapshot([.home]), scene: id)
    } throws: { error in
      (error as? StoreError)?.code == .invalidSceneID && (error as? StoreError)?.scene == id
    }
    #expect(try store.statistics().snapshotCount == 0)
  }

  @Test(
    "save accepts ids a scene can have",
    arguments: [
      "A", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "café", "\u{202E}bidi",
      "'; DROP TABLE snapshot; --",
      String(repeating: "é", count: 512),
    ])
  func accepted(id: String) throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home]), scene: id)
    #expect(try store.restore(scene: id, with: restorer).scene.routes(Route.self) == [.home])
  }

  @Test("the rule is the same on the ASCII shortcut and on scalars: every scalar up to U+00FF")
  func everySmallScalar() {
    for value in UInt32(0)...0xFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let control = value < 0x20 || (0x7F...0x9F).contains(value)
      for id in [String(scalar), "a\(scalar)", "\(scalar)z", "é\(scalar)", "ab\(scalar)cd"] {
        #expect(
          (SceneID.problem(with: id) != nil) == control, "U+\(value) in \(id.debugDescription)")
      }
    }
    #expect(SceneID.problem(with: String(repeating: "x", count: 1024)) == nil)
    #expect(SceneID.problem(with: String(repeating: "x", count: 1025)) != nil)
    #expect(SceneID.problem(with: "") != nil)
    // A bridged or substring-made id without contiguous UTF-8 still gets the rule.
    let sliced = String(Substring("xx\u{7F}y".dropFirst()))
    #expect(SceneID.problem(with: sliced) != nil)
  }

  @Test("ids that differ only after a NUL never meet: reads find nothing for the truncated id")
  func nulNeverTruncates() throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home]), scene: "a")
    #expect(store.restore(scene: "a\0b", with: restorer).snapshotID == nil)
    #expect(try store.history(scene: "a\0").isEmpty)
  }

  @Test("an app build with a NUL is stored whole, not cut at the NUL")
  func nulInBuild() throws {
    let store = try SnapshotStore(path: directory.path())
    var value = try snapshot([.home])
    value.metadata.appBuild = "1.0\0hidden"
    try store.save(value, scene: "A")
    #expect(try store.history(scene: "A").first?.appBuild == "1.0\0hidden")
  }

  @Test("NFC and NFD spellings of one name are two scenes")
  func unicodeEquivalentIDs() throws {
    let nfc = "caf\u{E9}"
    let nfd = "cafe\u{301}"
    #expect(nfc == nfd)  // Swift compares canonically: the store must not.
    #expect(!SceneID.same(nfc, nfd))
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home]), scene: nfc)
    try store.save(try snapshot([.settings]), scene: nfd)
    #expect(try store.restore(scene: nfc, with: restorer).scene.routes(Route.self) == [.home])
    #expect(try store.restore(scene: nfd, with: restorer).scene.routes(Route.self) == [.settings])
    #expect(try store.history(scene: nfc).count == 1)
  }
}
