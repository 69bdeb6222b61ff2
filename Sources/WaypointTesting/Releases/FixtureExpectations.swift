import Foundation
import Waypoint

/// A release folder's `expectations.json`: each fixture's file and the outcome it must restore to.
struct FixtureExpectations: Codable, Hashable, Sendable {
  static let currentFormatVersion = 1
  static let fileName = "expectations.json"

  /// One dropped item, as the expectation names it.
  struct Drop: Codable, Hashable, Sendable, CustomStringConvertible {
    /// `stack main[2]`, `sheet`, … (``/Waypoint/RouteLocation``'s description).
    var location: String
    /// The drop reason's code (`removedCase`, …).
    var code: String

    init(location: String, code: String) {
      self.location = location
      self.code = code
    }

    init(_ item: DroppedItem) {
      self.init(location: item.location.description, code: item.reason.code.rawValue)
    }

    var description: String { "\(location) (\(code))" }
  }

  /// One fixture and its expected outcome.
  struct Fixture: Codable, Hashable, Sendable {
    /// The scene's name; the file is `<name>.snapshot.json` or `<name>.path.json`.
    var name: String
    /// `snapshot` or `navigationPath`.
    var kind: String
    /// The stack a `NavigationPath` file restores into.
    var stack: String?
    /// `restored`, `partial` or `root`.
    var outcome: String
    /// The drops a `partial` or `root` outcome names, in report order.
    var drops: [Drop]

    var fileName: String {
      kind == "navigationPath" ? "\(name).path.json" : "\(name).snapshot.json"
    }

    /// The expectation that `scene` meets.
    func expecting(_ report: RestoreReport) -> Fixture {
      var copy = self
      copy.outcome = report.outcome.rawValue
      copy.drops = report.dropped.map(Drop.init)
      return copy
    }
  }

  var formatVersion = currentFormatVersion
  var release: String
  var fixtures: [Fixture]

  func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding plain strings and integers cannot fail.
    let data = (try? encoder.encode(self)) ?? Data()
    return data + Data("\n".utf8)
  }
}
