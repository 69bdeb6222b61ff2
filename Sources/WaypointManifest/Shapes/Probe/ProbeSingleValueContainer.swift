import Foundation
import Waypoint

/// The single-value container of a ``ProbeDecoder``: logs the one request.
package struct ProbeSingleValueContainer: SingleValueDecodingContainer {
  package let run: ProbeRun
  package let log: ContainerLog
  /// The JSON value; `nil` when probing without data.
  package let value: JSONValue?
  package let codingPath: [any CodingKey]

  package func decodeNil() -> Bool {
    run.note("decodeNil()")
    return value == .null
  }

  package func decode(_ type: Bool.Type) throws -> Bool { try request(type) }
  package func decode(_ type: String.Type) throws -> String { try request(type) }
  package func decode(_ type: Double.Type) throws -> Double { try request(type) }
  package func decode(_ type: Float.Type) throws -> Float { try request(type) }
  package func decode(_ type: Int.Type) throws -> Int { try request(type) }
  package func decode(_ type: Int8.Type) throws -> Int8 { try request(type) }
  package func decode(_ type: Int16.Type) throws -> Int16 { try request(type) }
  package func decode(_ type: Int32.Type) throws -> Int32 { try request(type) }
  package func decode(_ type: Int64.Type) throws -> Int64 { try request(type) }
  package func decode(_ type: UInt.Type) throws -> UInt { try request(type) }
  package func decode(_ type: UInt8.Type) throws -> UInt8 { try request(type) }
  package func decode(_ type: UInt16.Type) throws -> UInt16 { try request(type) }
  package func decode(_ type: UInt32.Type) throws -> UInt32 { try request(type) }
  package func decode(_ type: UInt64.Type) throws -> UInt64 { try request(type) }
  package func decode<T: Decodable>(_ type: T.Type) throws -> T { try request(type) }

  private func request<T: Decodable>(_ type: T.Type) throws -> T {
    let event = try run.nextEvent(codingPath)
    log.entries.append(
      .init(key: nil, event: event, action: .decode(TypeBox(type), sample: value, ifPresent: false))
    )
    return try run.value(type, from: value, hasData: value != nil)
  }
}
