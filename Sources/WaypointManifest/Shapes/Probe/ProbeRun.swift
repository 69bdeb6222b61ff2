import Foundation
import Waypoint

/// One call of a type's `init(from:)` on a ``ProbeDecoder``: the containers it opened, the calls the
/// probe cannot follow, and how it ended.
package final class ProbeRun {
  package let session: ProbeSession
  /// The request (by number) to fail on purpose, to learn whether the `init(from:)` swallows it.
  package let failAt: Int?
  private(set) var eventCount = 0
  /// The containers opened directly on the decoder.
  package var containers: [ContainerLog] = []
  /// Calls that make the decoding depend on the data in ways shapes cannot express.
  package var unsupported: [String] = []
  /// The error the `init(from:)` threw, if it did.
  package var error: String?

  package init(session: ProbeSession, failAt: Int?) {
    self.session = session
    self.failAt = failAt
  }

  /// Numbers a request; throws for the request chosen by ``failAt``.
  package func nextEvent(_ codingPath: [any CodingKey]) throws -> Int {
    let event = eventCount
    eventCount += 1
    if event == failAt {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "failure injected by the shape probe"))
    }
    return event
  }

  /// The value of a request: decoded from the example's JSON, or a stand-in without data.
  package func value<T: Decodable>(_ type: T.Type, from sample: JSONValue?, hasData: Bool) throws
    -> T
  {
    if hasData, let sample { return try session.materialize(type, from: sample) }
    return try session.placeholder(type)
  }

  /// The keys the run requested, nested containers included: runs with the same pattern decoded
  /// the same way.
  package var pattern: String {
    containers.map(\.pattern).joined(separator: ";")
  }

  package func note(_ call: String) {
    if !unsupported.contains(call) { unsupported.append(call) }
  }
}
