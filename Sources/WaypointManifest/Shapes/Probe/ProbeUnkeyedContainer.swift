import Foundation
import Waypoint

/// The unkeyed container of a ``ProbeDecoder``: logs each element request.
package struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  package let run: ProbeRun
  package let log: ContainerLog
  /// The array's elements; `nil` when probing without data (then the array is empty).
  package let items: [JSONValue]?
  package let codingPath: [any CodingKey]
  package private(set) var currentIndex = 0

  package init(run: ProbeRun, log: ContainerLog, items: [JSONValue]?, codingPath: [any CodingKey]) {
    self.run = run
    self.log = log
    self.items = items
    self.codingPath = codingPath
  }

  package var count: Int? { items?.count ?? 0 }

  package var isAtEnd: Bool {
    let atEnd = currentIndex >= (items?.count ?? 0)
    if atEnd { log.reachedEnd = true }
    return atEnd
  }

  package mutating func decodeNil() throws -> Bool {
    run.note("decodeNil()")
    guard let items, currentIndex < items.count, items[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  package mutating func decode(_ type: Bool.Type) throws -> Bool { try request(type) }
  package mutating func decode(_ type: String.Type) throws -> String { try request(type) }
  package mutating func decode(_ type: Double.Type) throws -> Double { try request(type) }
  package mutating func decode(_ type: Float.Type) throws -> Float { try request(type) }
  package mutating func decode(_ type: Int.Type) throws -> Int { try request(type) }
  package mutating func decode(_ type: Int8.Type) throws -> Int8 { try request(type) }
  package mutating func decode(_ type: Int16.Type) throws -> Int16 { try request(type) }
  package mutating func decode(_ type: Int32.Type) throws -> Int32 { try request(type) }
  package mutating func decode(_ type: Int64.Type) throws -> Int64 { try request(type) }
  package mutating func decode(_ type: UInt.Type) throws -> UInt { try request(type) }
  package mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try request(type) }
  package mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try request(type) }
  package mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try request(type) }
  package mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try request(type) }
  package mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try request(type) }

  package mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    try requestIfPresent(type)
  }
  package mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    try requestIfPresent(type)
  }

  package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    run.note("nested containers in an unkeyed container")
    let value = try next()
    return try ProbeDecoder(run: run, value: value, codingPath: elementPath)
      .container(keyedBy: type)
  }

  package mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    run.note("nested containers in an unkeyed container")
    let value = try next()
    return try ProbeDecoder(run: run, value: value, codingPath: elementPath).unkeyedContainer()
  }

  package mutating func superDecoder() throws -> any Decoder {
    run.note("superDecoder()")
    return ProbeDecoder(
      run: ProbeRun(session: run.session, failAt: nil), value: try next(),
      codingPath: elementPath)
  }

  private var elementPath: [any CodingKey] { codingPath + [PathKey(index: currentIndex)] }

  /// The current element, moving past it; `nil` without data.
  private mutating func next() throws -> JSONValue? {
    guard let items else { return nil }
    guard currentIndex < items.count else {
      throw DecodingError.valueNotFound(
        JSONValue.self, .init(codingPath: elementPath, debugDescription: "unkeyed container at end")
      )
    }
    defer { currentIndex += 1 }
    return items[currentIndex]
  }

  private mutating func request<T: Decodable>(_ type: T.Type) throws -> T {
    let event = try run.nextEvent(elementPath)
    let item = try next()
    log.entries.append(
      .init(key: nil, event: event, action: .decode(TypeBox(type), sample: item, ifPresent: false)))
    return try run.value(type, from: item, hasData: items != nil)
  }

  private mutating func requestIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    let event = try run.nextEvent(elementPath)
    let item = try next()
    let present = item == .null ? nil : item
    log.entries.append(
      .init(
        key: nil, event: event, action: .decode(TypeBox(type), sample: present, ifPresent: true)))
    guard let present else { return nil }
    return try run.value(type, from: present, hasData: true)
  }
}
