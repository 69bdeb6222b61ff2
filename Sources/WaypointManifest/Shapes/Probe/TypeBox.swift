import Foundation
import Waypoint

/// A Swift type that a probed `init(from:)` asked for, with what the probe needs to know about it,
/// behind closures so that it can be stored without the generic parameter.
package struct TypeBox {
  /// How `JSONDecoder` treats a type that the probe recognizes by type rather than by following its
  /// `init(from:)`.
  package indirect enum Standard {
    /// A leaf: `String`, the integers, `Double`, `Float`, `Bool`, `UUID`, `Date`, `URL`.
    case leaf(RouteShape)
    case optional(TypeBox)
    case array(TypeBox)
    case dictionary(TypeBox)
    /// A type `JSONDecoder` decodes its own way that shapes do not describe (`Data`, `Decimal`,
    /// dictionaries whose keys are not strings).
    case unsupported(String)
  }

  package let id: ObjectIdentifier
  package let name: String
  package let standard: Standard?
  package let isRawRepresentable: Bool
  /// Whether the type is `CaseIterable`: its cases can all be listed, examples or not.
  package let isCaseIterable: Bool
  /// Runs the type's `init(from:)` on a probing decoder over a sample (`nil`: without data), with
  /// the numbered request `failAt` made to fail.
  package let run: (ProbeSession, JSONValue?, Int?) -> ProbeRun
  /// The JSON of every case of a `CaseIterable` type (at most 1,000), else empty.
  package let caseSamples: () -> [JSONValue]

  package init<T: Decodable>(_ type: T.Type) {
    id = ObjectIdentifier(type)
    name = _typeName(type, qualified: false)
    standard = StandardTypes.standard(type)
    isRawRepresentable = type is any RawRepresentable.Type
    isCaseIterable = type is any CaseIterable.Type
    run = { session, sample, failAt in
      let run = ProbeRun(session: session, failAt: failAt)
      do {
        _ = try T(from: ProbeDecoder(run: run, value: sample, codingPath: []))
      } catch {
        run.error = String(describing: error)
      }
      return run
    }
    caseSamples = {
      guard let iterable = type as? any CaseIterable.Type else { return [] }
      return StandardTypes.encodedCases(of: iterable)
    }
  }
}
