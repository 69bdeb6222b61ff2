import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

@Suite("export --redact")
struct RedactionTests {
  let directory = TemporaryDirectory()
  let redactor = Redactor(limits: .default)

  @Test("SHA-256 matches the standard's test vectors")
  func sha256() {
    #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hex(String(repeating: "a", count: 1000)).hasPrefix("41edece42d63e8d9bf515a9ba6932e1c"))
  }

  @Test("values are replaced, keys and structure kept, JSON types kept")
  func payloads() throws {
    let redacted = redactor.payload(
      #"{"profile":{"name":"Ada","age":36,"tags":["a","b"],"admin":true,"nick":null,"score":2.5,"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}"#
    )
    let value = try JSONValue(parsing: redacted)
    guard case .object(let outer) = value, case .object(let profile)? = outer["profile"] else {
      Issue.record("shape lost: \(redacted)")
      return
    }
    #expect(Set(profile.keys) == ["name", "age", "tags", "admin", "nick", "score", "id"])
    guard case .string(let name)? = profile["name"] else {
      Issue.record("name")
      return
    }
    #expect(name.hasPrefix("~") && name != "Ada")
    guard case .integer(let age)? = profile["age"] else {
      Issue.record("age")
      return
    }
    #expect(age != 36)
    guard case .array(let tags)? = profile["tags"] else {
      Issue.record("tags")
      return
    }
    #expect(tags.count == 2)
    #expect(profile["admin"] == .bool(true))
    #expect(profile["nick"] == .null)
    guard case .string(let id)? = profile["id"] else {
      Issue.record("id")
      return
    }
    #expect(UUID(uuidString: id) != nil)
    #expect(id != "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    #expect(id == id.uppercased())
    #expect(!redacted.contains("Ada"))
  }

  @Test("the same value gives the same hash, different values different ones")
  func stable() async {
    #expect(
      redactor.payload(#"{"a":"x"}"#)
        == redactor.payload(#"{"b":"x"}"#).replacingOccurrences(of: "\"b\"", with: "\"a\""))
    #expect(redactor.payload(#""x""#) != redactor.payload(#""y""#))
    #expect(redactor.scene("phone") == redactor.scene("phone"))
    #expect(redactor.scene("phone") != redactor.build("phone"))
    #expect(redactor.payload("not json {") == redactor.payload("not json {"))
    #expect(!redactor.payload("not json {").contains("not json"))
  }

  @Test("a redacted export hides payload values, scene ids, builds and details, and still imports")
  func export() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "export", "--redact"])
    #expect(result.status == 0)
    for secret in [
      "Ada Lovelace", "E621E1F8", "phone", "tablet", "1.0 (1)", "2.0 (7)", "hunter2",
      "Gone.Type: unknown",
    ] {
      #expect(!result.out.contains(secret), "\(secret) leaked")
    }
    for kept in [
      "Shop.Route", "\\\"product\\\"", "\\\"profile\\\"", "\\\"name\\\"", "doubleColumn",
      "Gone.Type", "unrestorable", "\"orders\"",
    ] {
      #expect(result.out.contains(kept), "\(kept) lost")
    }
    let scenes = Set(
      result.out.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["scene"]
          as? String
      })
    #expect(scenes.count == 3)
    #expect(scenes.allSatisfy { $0.hasPrefix("scene-") })
    let file = directory.path("redacted.jsonl")
    try Data(result.outData).write(to: URL(fileURLWithPath: file))
    let copy = directory.path("copy.sqlite")
    #expect(await run(["--db", copy, "import", file]).status == 0)
    let shown = await run(["--db", copy, "show", redactor.scene("tablet")])
    #expect(shown.status == 0)
    #expect(shown.out.contains("stack shop: 2 routes"))
    #expect(shown.out.contains("Shop.Route {\"product\":{\"id\":"))
  }

  @Test(
    "split-view names this build does not know are stored text, and are hashed; known ones kept")
  func unknownSplitNames() async throws {
    let path = directory.path("split.sqlite")
    let store = try SnapshotStore(path: path)
    try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        split: SplitViewSnapshot(
          columnVisibility: ColumnVisibility(rawValue: "bob@example.com"),
          preferredCompactColumn: SplitColumn(rawValue: "alice-secret"))),
      scene: "unknown")
    try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        split: SplitViewSnapshot(columnVisibility: .doubleColumn, preferredCompactColumn: .detail)),
      scene: "known")
    let result = await run(["--db", path, "export", "--redact"])
    #expect(result.status == 0, "\(result.err)")
    for secret in ["bob@example.com", "alice-secret"] {
      #expect(!result.out.contains(secret), "\(secret) leaked")
    }
    #expect(result.out.contains(redactor.text("bob@example.com")))
    #expect(result.out.contains(redactor.text("alice-secret")))
    #expect(result.out.contains("\"doubleColumn\""))
    #expect(result.out.contains("\"preferredCompactColumn\":\"detail\""))
  }

  @Test("a document that cannot be decoded is left out of a redacted export, never leaked")
  func unreadable() async throws {
    let path = try exampleStore(directory)
    #expect(
      rawSQL(
        path, "UPDATE snapshot SET document = ? WHERE id = 1",
        blob: Data(#"{"format":1,"secret":"Ada"}"#.utf8)) == 0)
    let result = await run(["--db", path, "export", "--redact"])
    #expect(result.status == 65)
    #expect(!result.out.contains("Ada"))
    #expect(
      result.err.contains(
        "snapshot 1 of scene \(redactor.scene("phone")) left out: missing field savedAt"))
  }
}
