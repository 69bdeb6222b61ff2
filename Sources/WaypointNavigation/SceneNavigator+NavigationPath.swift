import Foundation
import Waypoint

extension SceneNavigator {
  /// The stack `name` as `NavigationPath.CodableRepresentation` JSON: each route named as SwiftUI
  /// names it, `_typeName(T.self, qualified: true)` in the running build, whatever its registry
  /// tag, so that `NavigationPath(CodableRepresentation)` resolves it. Decode it with `JSONDecoder`
  /// and pass it to `NavigationPath(_:)`.
  ///
  /// Built once per change of the stack and kept: a read of an unchanged stack costs nothing, and
  /// after a push only the new route is encoded. Routes the registry cannot record are left out
  /// with every route above them (SwiftUI would drop them too), and reported through ``onEvent``
  /// when the representation is built.
  public func navigationPathData(_ name: String = SceneSnapshot.mainStackName) -> Data {
    let routes = stack(name)
    let built = paths.data(for: routes, named: name, registry: restorer.registry)
    if let unrecorded = built.unrecorded { emit(.unrecorded([unrecorded])) }
    return built.data
  }

  /// Replaces the stack `name` with the routes of a `NavigationPath.CodableRepresentation` JSON
  /// document (the bytes of `path.codable`), decoded and validated by the restorer. Elements are
  /// looked up by the name SwiftUI gives them (a registered type's name in the running build), or
  /// by a registered tag or alias.
  ///
  /// - Returns: What was dropped. Elements that do not decode are dropped as in a restore; data
  ///   that is not such a document leaves the stack unchanged and restores nothing (outcome
  ///   ``/Waypoint/RestoreReport/Outcome/root``, with the reason).
  @discardableResult
  public func replaceStack(
    navigationPath data: Data, named name: String = SceneSnapshot.mainStackName
  ) -> RestoreReport {
    do {
      _ = try NavigationPathRepresentation.records(from: data, limits: restorer.limits)
    } catch {
      let item = DroppedItem(location: .snapshot, tag: nil, reason: .unreadableSnapshot(error))
      return RestoreReport(outcome: .root, dropped: [item])
    }
    let restored = restorer.restore(navigationPath: data, stack: name)
    replaceStack(restored.elements(in: name), named: name)
    return restored.report
  }
}

/// The `NavigationPath` representation of each stack, kept from one change to the next: each
/// route's element (its type's name and its JSON, escaped) is written once, when the route enters
/// the stack, and a push or a pop changes only the elements at the top; the representation is
/// those elements joined.
struct PathRepresentations {
  private typealias Element = NavigationPathRepresentation.Element

  /// A stack's elements, root first (those of the routes at the bottom of the stack, up to the
  /// first not recorded yet), and the JSON made of them (`nil` once the stack changed).
  private struct Stack {
    var elements: [Element] = []
    /// The routes the elements were made of, when the stack changed otherwise than by a push or a
    /// pop: the elements of the routes still at the bottom are kept.
    var replaced: [AnyHashable]?
    var data: Data?
  }

  private var stacks: [String: Stack] = [:]
  /// How many times each stack changed: a view of a stack built at one count stands while the
  /// count does.
  private var changes: [String: Int] = [:]

  /// How many times the stack `name` changed so far.
  func changeCount(of name: String) -> Int { changes[name] ?? 0 }

  /// A route was pushed on the stack `name`: its element is made at the next read.
  mutating func pushed(on name: String) {
    stacks[name]?.data = nil
    changes[name, default: 0] &+= 1
  }

  /// The stack `name` now holds `count` routes, the bottom ones of what it held.
  mutating func popped(_ name: String, to count: Int) {
    if var stack = stacks.removeValue(forKey: name) {
      if stack.replaced == nil, stack.elements.count > count {
        stack.elements.removeLast(stack.elements.count - count)
      }
      stack.data = nil
      stacks[name] = stack
    }
    changes[name, default: 0] &+= 1
  }

  /// The stack `name` changed otherwise (replaced, restored): its routes are compared with those of
  /// its elements at the next read.
  mutating func replaced(_ name: String, previous routes: [any RestorableRoute]) {
    if var stack = stacks.removeValue(forKey: name) {
      if stack.replaced == nil {
        stack.replaced = routes.prefix(stack.elements.count).map { SceneNavigator.key($0) }
      }
      stack.data = nil
      stacks[name] = stack
    }
    changes[name, default: 0] &+= 1
  }

  /// The representation of `routes`, the stack `name`, and where recording stopped (`nil` when
  /// every route was recorded, reported once per change).
  mutating func data(
    for routes: [any RestorableRoute], named name: String, registry: RouteRegistry
  ) -> (data: Data, unrecorded: String?) {
    if let data = stacks[name]?.data { return (data, nil) }
    // Taken out of the dictionary while it changes, so that its elements are not copied.
    var stack = stacks.removeValue(forKey: name) ?? Stack()
    defer { stacks[name] = stack }
    if let previous = stack.replaced {
      // The routes kept from the bottom of the stack keep their elements.
      let current = routes.prefix(previous.count).map { SceneNavigator.key($0) }
      var kept = 0
      while kept < current.count, previous[kept] == current[kept] { kept += 1 }
      stack.elements.removeSubrange(kept...)
      stack.replaced = nil
    }
    stack.elements.removeSubrange(min(stack.elements.count, routes.count)...)
    var unrecorded: String?
    for index in stack.elements.count..<routes.count {
      let route = routes[index]
      do {
        let record = try registry.encode(route)
        stack.elements.append(
          Element(typeName: _typeName(type(of: route), qualified: true), json: record.json))
      } catch {
        unrecorded = "stack \(name)[\(index)]: \(error)"
        break
      }
    }
    let data = NavigationPathRepresentation.data(joining: stack.elements)
    stack.data = data
    return (data, unrecorded)
  }
}
