import Foundation
import Waypoint

/// What a probed `init(from:)` did with one container: the requests, in order, with the JSON each
/// found in the example (none when probing without data).
package final class ContainerLog {
  package enum Kind {
    case keyed
    case unkeyed
    case singleValue
  }

  /// What one request asked for.
  package enum Action {
    /// `decode(_:forKey:)`, or `decodeIfPresent` when `ifPresent`. `sample` is the JSON found, or
    /// `nil` when there was none (or, for `decodeIfPresent`, it was `null`).
    case decode(TypeBox, sample: JSONValue?, ifPresent: Bool)
    /// `nestedContainer(keyedBy:forKey:)` or `nestedUnkeyedContainer(forKey:)`.
    case nested(ContainerLog)
  }

  package struct Entry {
    /// The key; `nil` in unkeyed and single-value containers.
    package var key: String?
    /// The request's number within its run (see ``ProbeRun/nextEvent(_:)``).
    package var event: Int
    package var action: Action
  }

  package let kind: Kind
  /// The number of the request that opened the container.
  package let event: Int
  /// The number of elements of an unkeyed container's array (`nil` without data).
  package let itemCount: Int?
  package var entries: [Entry] = []
  /// Whether `allKeys` was read, as synthesized enum decoding does.
  package var readAllKeys = false
  /// Whether an unkeyed container answered `isAtEnd == true`.
  package var reachedEnd = false
  /// Requests whose failure the `init(from:)` swallowed (found by ``ProbeSession``).
  package var toleratedEvents: Set<Int> = []

  package init(_ kind: Kind, event: Int, itemCount: Int? = nil) {
    self.kind = kind
    self.event = event
    self.itemCount = itemCount
  }

  /// Every `(type, sample)` that the requests of this container and its nested ones found.
  package var requestedSamples: [(TypeBox, JSONValue)] {
    entries.flatMap { entry -> [(TypeBox, JSONValue)] in
      switch entry.action {
      case .decode(let type, let sample?, _): [(type, sample)]
      case .decode: []
      case .nested(let log): log.requestedSamples
      }
    }
  }

  /// The requested keys in order, with nested containers in braces.
  package var pattern: String {
    entries.map { entry in
      switch entry.action {
      case .decode: entry.key ?? "_"
      case .nested(let log): (entry.key ?? "_") + "{" + log.pattern + "}"
      }
    }.joined(separator: ",")
  }

  /// Marks `event` as tolerated in this container or a nested one; whether it was found.
  @discardableResult
  package func markTolerated(_ event: Int) -> Bool {
    if entries.contains(where: { $0.event == event }) {
      toleratedEvents.insert(event)
      return true
    }
    return entries.contains { entry in
      if case .nested(let log) = entry.action { return log.markTolerated(event) }
      return false
    }
  }
}
