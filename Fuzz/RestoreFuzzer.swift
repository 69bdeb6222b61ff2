// Fuzz target `restore`: everything in the core that reads untrusted bytes: snapshot documents
// (read as their oracle, JSONDecoder, reads them), NavigationPath representations, route manifests
// and offline validation. Built by Scripts/fuzz
// with the package's sources, outside SwiftPM (a SwiftPM target cannot link -sanitize=fuzzer).
import Foundation

enum FuzzRoute: Codable, Hashable, Sendable {
  case home
  case item(id: Int, tags: [String])
  case profile(userId: UUID, nickname: String?)
}

struct FuzzArticle: Codable, Hashable, Sendable {
  var slug: String
  var page: Int8
  var related: [FuzzArticle]?
}

let registry: RouteRegistry = {
  var registry = RouteRegistry(schemaVersion: 2)
  registry.register(
    FuzzRoute.self, tag: "F.Route", version: 2,
    migrations: [
      RouteMigration(
        from: 1,
        [
          .renameCase(from: "old", to: "home"),
          .renameField(case: "item", from: "identifier", to: "id"),
          .addField(case: "item", name: "tags", default: .array([])), .removeCase("gone"),
          .mapValues(
            case: "profile", field: "userId",
            table: [.integer(1): .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")]),
        ])
    ],
    examples: [.home, .item(id: 1, tags: ["a"]), .profile(userId: UUID(), nickname: nil)])
  registry.register(
    FuzzArticle.self, tag: "F.Article", examples: [FuzzArticle(slug: "a", page: 1, related: [])])
  return registry
}()

let manifest = RouteManifest(registry: registry)

/// Restores, validates and parses the bytes every way the core can.
func fuzzRestore(_ data: Data) {
  for policy in RestorePolicy.allCases {
    let restorer = Restorer(registry: registry, policy: policy)
    _ = restorer.restore(encoded: data)
    _ = restorer.restore(navigationPath: data)
    _ = manifest.predict(encoded: data, policy: policy)
  }
  // The one reader of snapshot documents reads as its oracle, JSONDecoder, does.
  let read = Result { () throws(SnapshotFormatError) in try SceneSnapshot(decoding: data) }
  let oracle = Result { () throws(SnapshotFormatError) in
    try SnapshotDocumentOracle.decode(data)
  }
  if let problem = SnapshotDocumentOracle.disagreement(read, oracle, data: data) {
    fatalError("the reader and JSONDecoder disagree: \(problem)")
  }
  if let decoded = try? RouteManifest(decoding: data) {
    // `waypoint manifest diff` compares hostile manifests on either side.
    _ = ManifestDiff(committed: decoded, current: manifest, release: "fuzz").findings()
    _ = ManifestDiff(committed: manifest, current: decoded, release: "fuzz").findings()
  }
  if let text = String(data: data, encoding: .utf8), let value = try? JSONValue(parsing: text) {
    for route in manifest.routes {
      _ = route.shape.match(value, references: { manifest.route(named: $0)?.shape })
    }
  }
}
