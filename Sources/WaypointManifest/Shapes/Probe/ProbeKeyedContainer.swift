import Foundation
import Waypoint

/// The keyed container of a ``ProbeDecoder``: logs each request with the member it found.
package struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  package let run: ProbeRun
  package let log: ContainerLog
  /// The object's members; `nil` when probing without data.
  package let members: [String: JSONValue]?
  package let codingPath: [any CodingKey]

  package var allKeys: [Key] {
    log.readAllKeys = true
    return (members?.keys.sorted() ?? []).compactMap { Key(stringValue: $0) }
  }

  package func contains(_ key: Key) -> Bool {
    run.note("contains(_:)")
    return members?[key.stringValue] != nil
  }

  package func decodeNil(forKey key: Key) throws -> Bool {
    run.note("decodeNil(forKey:)")
    guard let members else { return false }
    guard let member = members[key.stringValue] else { throw missing(key) }
    return member == .null
  }

  package func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try request(type, key) }
  package func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try request(type, key)
  }
  package func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try request(type, key)
  }
  package func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try request(type, key)
  }
  package func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try request(type, key) }
  package func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try request(type, key) }
  package func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try request(type, key)
  }
  package func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try request(type, key)
  }
  package func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try request(type, key)
  }
  package func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try request(type, key) }
  package func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try request(type, key)
  }
  package func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try request(type, key)
  }
  package func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try request(type, key)
  }
  package func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try request(type, key)
  }
  package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try request(type, key)
  }

  package func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try requestIfPresent(type, key)
  }
  package func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try requestIfPresent(type, key)
  }

  package func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let nested = ContainerLog(.keyed, event: try run.nextEvent(codingPath + [key]))
    log.entries.append(.init(key: key.stringValue, event: nested.event, action: .nested(nested)))
    var nestedMembers: [String: JSONValue]?
    if let members {
      guard let member = members[key.stringValue] else { throw missing(key) }
      nestedMembers = try ProbeDecoder.members(of: member, codingPath + [key])
    }
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        run: run, log: nested, members: nestedMembers, codingPath: codingPath + [key]))
  }

  package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let event = try run.nextEvent(codingPath + [key])
    var items: [JSONValue]?
    if let members {
      guard let member = members[key.stringValue] else { throw missing(key) }
      items = try ProbeDecoder.items(of: member, codingPath + [key])
    }
    let nested = ContainerLog(.unkeyed, event: event, itemCount: items?.count)
    log.entries.append(.init(key: key.stringValue, event: event, action: .nested(nested)))
    return ProbeUnkeyedContainer(
      run: run, log: nested, items: items, codingPath: codingPath + [key])
  }

  package func superDecoder() throws -> any Decoder {
    run.note("superDecoder()")
    return ProbeDecoder(
      run: ProbeRun(session: run.session, failAt: nil), value: members?["super"],
      codingPath: codingPath)
  }

  package func superDecoder(forKey key: Key) throws -> any Decoder {
    run.note("superDecoder(forKey:)")
    return ProbeDecoder(
      run: ProbeRun(session: run.session, failAt: nil), value: members?[key.stringValue],
      codingPath: codingPath + [key])
  }

  private func request<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    let event = try run.nextEvent(codingPath + [key])
    let member = members?[key.stringValue]
    log.entries.append(
      .init(
        key: key.stringValue, event: event,
        action: .decode(TypeBox(type), sample: member, ifPresent: false)))
    if members != nil && member == nil { throw missing(key) }
    return try run.value(type, from: member, hasData: members != nil)
  }

  private func requestIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
    let event = try run.nextEvent(codingPath + [key])
    let found = members?[key.stringValue]
    let member = found == .null ? nil : found
    log.entries.append(
      .init(
        key: key.stringValue, event: event,
        action: .decode(TypeBox(type), sample: member, ifPresent: true)))
    guard let member else { return nil }
    return try run.value(type, from: member, hasData: true)
  }

  private func missing(_ key: Key) -> DecodingError {
    .keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for the key"))
  }
}
