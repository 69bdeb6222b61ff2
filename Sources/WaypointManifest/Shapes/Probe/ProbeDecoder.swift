import Foundation
import Waypoint

/// A `Decoder` that records what a type's `init(from:)` asks for, over an example's JSON (walked as
/// `JSONDecoder` would) or over nothing (every request answered with a stand-in value).
///
/// Nested values are decoded by `JSONDecoder` itself from the example's JSON, so a run records only
/// the requests of one type; ``ProbeSession`` follows the requested types separately.
package struct ProbeDecoder: Decoder {
  package let run: ProbeRun
  /// The JSON being decoded; `nil` when probing without data.
  package let value: JSONValue?
  package let codingPath: [any CodingKey]
  package var userInfo: [CodingUserInfoKey: Any] { [:] }

  package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<
    Key
  > {
    let log = ContainerLog(.keyed, event: try run.nextEvent(codingPath))
    run.containers.append(log)
    let members = try value.map { try ProbeDecoder.members(of: $0, codingPath) }
    return KeyedDecodingContainer(
      ProbeKeyedContainer<Key>(run: run, log: log, members: members, codingPath: codingPath))
  }

  package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let event = try run.nextEvent(codingPath)
    let items = try value.map { try ProbeDecoder.items(of: $0, codingPath) }
    let log = ContainerLog(.unkeyed, event: event, itemCount: items?.count)
    run.containers.append(log)
    return ProbeUnkeyedContainer(run: run, log: log, items: items, codingPath: codingPath)
  }

  package func singleValueContainer() throws -> any SingleValueDecodingContainer {
    let log = ContainerLog(.singleValue, event: try run.nextEvent(codingPath))
    run.containers.append(log)
    return ProbeSingleValueContainer(run: run, log: log, value: value, codingPath: codingPath)
  }

  /// The members of an object, or the error `JSONDecoder` throws for anything else.
  package static func members(of value: JSONValue, _ codingPath: [any CodingKey]) throws
    -> [String: JSONValue]
  {
    switch value {
    case .object(let members): return members
    case .null:
      throw DecodingError.valueNotFound(
        [String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "found null"))
    default:
      throw DecodingError.typeMismatch(
        [String: JSONValue].self,
        .init(codingPath: codingPath, debugDescription: "found \(value.kindDescription)"))
    }
  }

  /// The elements of an array, or the error `JSONDecoder` throws for anything else.
  package static func items(of value: JSONValue, _ codingPath: [any CodingKey]) throws
    -> [JSONValue]
  {
    switch value {
    case .array(let items): return items
    case .null:
      throw DecodingError.valueNotFound(
        [JSONValue].self, .init(codingPath: codingPath, debugDescription: "found null"))
    default:
      throw DecodingError.typeMismatch(
        [JSONValue].self,
        .init(codingPath: codingPath, debugDescription: "found \(value.kindDescription)"))
    }
  }
}
