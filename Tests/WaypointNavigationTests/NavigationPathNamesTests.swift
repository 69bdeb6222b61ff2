import Foundation
import Testing
import Waypoint

@testable import WaypointNavigation

/// A route registered under a tag of its own, not the name SwiftUI gives its type.
enum NavRoute: RestorableRoute {
  case home
  case item(UUID)
}

/// A route registered with its old name as an alias.
struct Renamed: RestorableRoute { var id: Int }

/// The `NavigationPath` representation the navigator gives SwiftUI, and the one SwiftUI gives back,
/// read as SwiftUI reads them: each element's type looked up by `_typeName(T.self, qualified: true)`
/// in the running build, whatever the registry's tags.
@MainActor
@Suite("Scene navigator: NavigationPath names its elements as SwiftUI does")
struct NavigationPathNamesTests {
  static let registry = RouteRegistry()
    .registering(NavRoute.self, tag: "Nav.Route")
    .registering(Renamed.self, tag: "Shop.Renamed", aliases: ["OldShop.Item"])

  static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

  static let values: [any RestorableRoute] = [
    NavRoute.home, Renamed(id: 3), 42, "a/b \"quoted\"", true, 2.5, uuid, NavRoute.item(uuid),
  ]

  /// SwiftUI's side: the types the app's views declare, by the name the running build gives them,
  /// each decoded from its element's JSON with a plain `JSONDecoder`.
  static let swiftUITypes: [String: (String) throws -> AnyHashable] = {
    func entry<T: Codable & Hashable>(_ type: T.Type) -> (String, (String) throws -> AnyHashable) {
      (
        _typeName(type, qualified: true),
        { json in AnyHashable(try JSONDecoder().decode(T.self, from: Data(json.utf8))) }
      )
    }
    return Dictionary(
      uniqueKeysWithValues: [
        entry(NavRoute.self), entry(Renamed.self), entry(Int.self), entry(String.self),
        entry(Bool.self), entry(Double.self), entry(UUID.self),
      ])
  }()

  /// Decodes a representation as `NavigationPath(CodableRepresentation)` does: top first, each
  /// element by its type name. Returns the values root first, or throws where SwiftUI would fail.
  static func decodeAsSwiftUI(_ data: Data) throws -> [AnyHashable] {
    let strings = try JSONDecoder().decode([String].self, from: data)
    var values: [AnyHashable] = []
    var index = 0
    while index + 1 < strings.count {
      guard let decode = swiftUITypes[strings[index]] else {
        throw UnknownName(name: strings[index])
      }
      values.append(try decode(strings[index + 1]))
      index += 2
    }
    return values.reversed()
  }

  struct UnknownName: Error { var name: String }

  /// What SwiftUI writes for `values` (root first): each element's type name in the running build,
  /// its JSON from a plain `JSONEncoder`, top first.
  static func writtenBySwiftUI(_ values: [any RestorableRoute]) throws -> Data {
    var strings: [String] = []
    for value in values.reversed() {
      strings.append(_typeName(type(of: value), qualified: true))
      strings.append(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }
    return try JSONEncoder().encode(strings)
  }

  @Test("every element is named as SwiftUI names it: custom tags, aliases, standard types and UUID")
  func namesAreSwiftUIs() throws {
    let navigator = SceneNavigator(restorer: Restorer(registry: Self.registry))
    navigator.replaceStack(Self.values)
    let data = navigator.navigationPathData()
    let decoded = try Self.decodeAsSwiftUI(data)
    #expect(decoded == Self.values.map { SceneNavigator.key($0) })
    let names = try JSONDecoder().decode([String].self, from: data).enumerated()
      .filter { $0.offset.isMultiple(of: 2) }.map(\.element)
    #expect(!names.contains("Nav.Route") && !names.contains("Shop.Renamed"))
    #expect(names.contains(_typeName(UUID.self, qualified: true)))
  }

  @Test("a path written by SwiftUI reads back through the registry, whatever the tags")
  func readsSwiftUIsPath() throws {
    let navigator = SceneNavigator(restorer: Restorer(registry: Self.registry))
    let report = navigator.replaceStack(navigationPath: try Self.writtenBySwiftUI(Self.values))
    #expect(report.outcome == .restored, "\(report)")
    #expect(
      navigator.stack().map { SceneNavigator.key($0) } == Self.values.map { SceneNavigator.key($0) }
    )
    // A representation that names an element by its tag or an alias (an older build's) reads too.
    let older = Data(#"["OldShop.Item","{\"id\":9}","Nav.Route","{\"home\":{}}"]"#.utf8)
    #expect(navigator.replaceStack(navigationPath: older).outcome == .restored)
    let expected: [AnyHashable] = [
      SceneNavigator.key(NavRoute.home), SceneNavigator.key(Renamed(id: 9)),
    ]
    #expect(navigator.stack().map { SceneNavigator.key($0) } == expected)
  }

  @Test(
    "the representation follows each change: pushes, pops and replacements, read again and again")
  func followsChanges() throws {
    let navigator = SceneNavigator(restorer: Restorer(registry: Self.registry))
    var expected: [any RestorableRoute] = []
    func check() throws {
      for _ in 0..<2 {
        let decoded = try Self.decodeAsSwiftUI(navigator.navigationPathData())
        #expect(decoded == expected.map { SceneNavigator.key($0) })
      }
    }
    try check()
    for value in Self.values {
      navigator.push(value)
      expected.append(value)
      try check()
    }
    navigator.pop(3)
    expected.removeLast(3)
    try check()
    navigator.replaceStack([NavRoute.home, Renamed(id: 1)] + expected.dropFirst(2))
    expected = [NavRoute.home, Renamed(id: 1)] + expected.dropFirst(2)
    try check()
    navigator.popToRoot()
    expected = []
    try check()
  }

  @Test("the check can fail: the registry's tags are not names SwiftUI can resolve")
  func tagsWouldNotResolve() throws {
    var strings: [String] = []
    for value in Self.values.reversed() {
      let record = try Self.registry.encode(value)
      strings.append(record.tag)
      strings.append(record.json)
    }
    #expect(throws: UnknownName.self) {
      try Self.decodeAsSwiftUI(try JSONEncoder().encode(strings))
    }
  }
}
