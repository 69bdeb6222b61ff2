import Foundation

/// Encodes a route value to the JSON that `JSONEncoder` with `.sortedKeys` (and its default
/// strategies) writes for it: compact, object keys sorted by their UTF-8 bytes, `/` escaped,
/// `Date` as its `Double` of seconds since 2001, `Data` in Base64, `URL` as its absolute string,
/// `Decimal` and other numbers as swift-foundation's `JSONEncoder` writes them, with the same
/// refusals (a non-finite number, a value that encodes nothing). It runs on every recording of a
/// route, where `JSONEncoder` costs half as much again; `RouteEncoderTests` hold it to
/// `JSONEncoder` as the oracle, byte for byte. Where another Foundation's `JSONEncoder` writes a
/// number otherwise, both texts decode to the same value.
///
/// Not thread-safe: one encoding at a time per instance; ``encode(_:)`` makes one.
package final class RouteEncoder: Encoder {
  /// A value being encoded: either written already, or a container still being filled.
  package enum Node {
    /// A scalar or a string, as its JSON text.
    case text(String)
    /// A string, escaped when written.
    case string(String)
    case object(ObjectBox)
    case array(ArrayBox)
  }

  /// An object's members, in the order they were encoded; a key encoded again replaces its value,
  /// as `JSONEncoder` does.
  package final class ObjectBox {
    package var members: [(key: String, value: Node)] = []

    package func set(_ value: Node, for key: String) {
      if let place = members.firstIndex(where: { $0.key == key }) {
        members[place].value = value
      } else {
        members.append((key, value))
      }
    }
  }

  /// An array's elements.
  package final class ArrayBox {
    package var elements: [Node] = []
  }

  /// Where this encoder's one value goes: the root, an object's member or an array's element
  /// (a `superEncoder`).
  private enum Destination {
    case root
    case member(ObjectBox, String)
    case element(ArrayBox, Int)
  }

  package let codingPath: [any CodingKey]
  package var userInfo: [CodingUserInfoKey: Any] { [:] }
  /// The value encoded, once a container was asked for or a value encoded.
  private(set) var root: Node?
  private let destination: Destination

  private init(codingPath: [any CodingKey], destination: Destination) {
    self.codingPath = codingPath
    self.destination = destination
  }

  /// The JSON of `value`.
  ///
  /// - Throws: `EncodingError` where `JSONEncoder` throws one: a number that is not finite, or a
  ///   value that encodes nothing; and what the value's own `encode(to:)` throws.
  package static func encode(_ value: some Encodable) throws -> String {
    let encoder = RouteEncoder(codingPath: [], destination: .root)
    let node = try encoder.box(value)
    guard let node else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [],
          debugDescription: "Top-level \(type(of: value)) did not encode any values."))
    }
    var writer = JSONWriter(capacity: 64)
    write(node, to: &writer)
    return String(decoding: writer.finish(), as: UTF8.self)
  }

  /// Sets this encoder's value, in its destination too.
  private func set(_ node: Node) {
    root = node
    switch destination {
    case .root: break
    case .member(let object, let key): object.set(node, for: key)
    case .element(let array, let index): array.elements[index] = node
    }
  }

  package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: ObjectBox
    if case .object(let existing) = root {
      object = existing
    } else {
      object = ObjectBox()
      set(.object(object))
    }
    return KeyedEncodingContainer(KeyedContainer(object: object, codingPath: codingPath))
  }

  package func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: ArrayBox
    if case .array(let existing) = root {
      array = existing
    } else {
      array = ArrayBox()
      set(.array(array))
    }
    return UnkeyedContainer(array: array, codingPath: codingPath)
  }

  package func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  // MARK: Values

  /// The node of `value`: the types `JSONEncoder` writes in its own way (told by their type, not
  /// by a cast, which costs more than the rest of a route's encoding), or what the value's
  /// `encode(to:)` gives through a nested encoder at this place (`nil` when it encoded nothing).
  fileprivate func box<T: Encodable>(_ value: T, at key: (any CodingKey)? = nil) throws -> Node? {
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .text(String(value as! Int)) }
    if T.self == Bool.self { return .text((value as! Bool) ? "true" : "false") }
    if T.self == Double.self { return try .text(Self.text(value as! Double, key)) }
    if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
    if T.self == URL.self { return .string((value as! URL).absoluteString) }
    if T.self == Decimal.self { return .text((value as! Decimal).description) }
    if T.self == Float.self { return try .text(Self.text(value as! Float, key)) }
    if let integer = Self.integerText(value) { return .text(integer) }
    let nested = RouteEncoder(
      codingPath: key.map { codingPath + [$0] } ?? codingPath, destination: .root)
    try value.encode(to: nested)
    return nested.root
  }

  /// The digits of a value of a fixed-width integer type other than `Int`, `nil` for another type.
  private static func integerText<T>(_ value: T) -> String? {
    if T.self == Int64.self { return String(value as! Int64) }
    if T.self == UInt64.self { return String(value as! UInt64) }
    if T.self == Int32.self { return String(value as! Int32) }
    if T.self == UInt32.self { return String(value as! UInt32) }
    if T.self == Int16.self { return String(value as! Int16) }
    if T.self == UInt16.self { return String(value as! UInt16) }
    if T.self == Int8.self { return String(value as! Int8) }
    if T.self == UInt8.self { return String(value as! UInt8) }
    if T.self == UInt.self { return String(value as! UInt) }
    return nil
  }

  /// A floating-point number as `JSONEncoder` writes it: its shortest description, without a
  /// trailing `.0`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a number that is not finite.
  package static func text<F: BinaryFloatingPoint & LosslessStringConvertible & Encodable>(
    _ number: F, _ key: (any CodingKey)? = nil
  ) throws -> String {
    guard number.isFinite else {
      throw EncodingError.invalidValue(
        number,
        EncodingError.Context(
          codingPath: key.map { [$0] } ?? [],
          debugDescription: "Unable to encode \(F.self).\(number) directly in JSON."))
    }
    var text = number.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }

  // MARK: Writing

  /// Writes `node` compact, objects' keys sorted by their UTF-8 bytes.
  private static func write(_ node: Node, to writer: inout JSONWriter) {
    switch node {
    case .text(let text):
      writer.ascii(text)
    case .string(let string):
      writer.quoted(string, escapingSlashes: true)
    case .array(let array):
      writer.byte(0x5B)
      for (index, element) in array.elements.enumerated() {
        if index > 0 { writer.byte(0x2C) }
        write(element, to: &writer)
      }
      writer.byte(0x5D)
    case .object(let object):
      writer.byte(0x7B)
      let members =
        object.members.count < 2
        ? object.members : object.members.sorted { SceneSnapshot.precedes($0.key, $1.key) }
      for (index, member) in members.enumerated() {
        if index > 0 { writer.byte(0x2C) }
        writer.quoted(member.key, escapingSlashes: true)
        writer.byte(0x3A)
        write(member.value, to: &writer)
      }
      writer.byte(0x7D)
    }
  }

  // MARK: Containers

  private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    package let object: ObjectBox
    package let codingPath: [any CodingKey]

    package func encodeNil(forKey key: Key) { object.set(.text("null"), for: key.stringValue) }

    package func encode(_ value: String, forKey key: Key) {
      object.set(.string(value), for: key.stringValue)
    }

    package func encode(_ value: Int, forKey key: Key) {
      object.set(.text(String(value)), for: key.stringValue)
    }

    package func encode(_ value: Bool, forKey key: Key) {
      object.set(.text(value ? "true" : "false"), for: key.stringValue)
    }

    package func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      let encoder = RouteEncoder(codingPath: codingPath, destination: .root)
      // A value that encodes nothing is an empty object, as JSONEncoder writes it.
      let node = try encoder.box(value, at: key) ?? .object(ObjectBox())
      object.set(node, for: key.stringValue)
    }

    package func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = ObjectBox()
      object.set(.object(nested), for: key.stringValue)
      return KeyedEncodingContainer(
        KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    package func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let nested = ArrayBox()
      object.set(.array(nested), for: key.stringValue)
      return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    package func superEncoder() -> any Encoder { superEncoder(named: "super") }

    package func superEncoder(forKey key: Key) -> any Encoder {
      superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
      object.set(.object(ObjectBox()), for: name)
      return RouteEncoder(
        codingPath: codingPath + [PathKey(name)], destination: .member(object, name))
    }
  }

  private struct UnkeyedContainer: UnkeyedEncodingContainer {
    package let array: ArrayBox
    package let codingPath: [any CodingKey]
    package var count: Int { array.elements.count }

    package func encodeNil() { array.elements.append(.text("null")) }

    package func encode<T: Encodable>(_ value: T) throws {
      let encoder = RouteEncoder(codingPath: codingPath, destination: .root)
      let node = try encoder.box(value, at: PathKey(index: count)) ?? .object(ObjectBox())
      array.elements.append(node)
    }

    package func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      let nested = ObjectBox()
      let key = PathKey(index: count)
      array.elements.append(.object(nested))
      return KeyedEncodingContainer(
        KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    package func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let nested = ArrayBox()
      let key = PathKey(index: count)
      array.elements.append(.array(nested))
      return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    package func superEncoder() -> any Encoder {
      let index = count
      array.elements.append(.object(ObjectBox()))
      return RouteEncoder(
        codingPath: codingPath + [PathKey(index: index)], destination: .element(array, index))
    }
  }

  private struct SingleValueContainer: SingleValueEncodingContainer {
    package let encoder: RouteEncoder
    package var codingPath: [any CodingKey] { encoder.codingPath }

    package func encodeNil() { encoder.set(.text("null")) }

    package func encode<T: Encodable>(_ value: T) throws {
      let nested = RouteEncoder(codingPath: encoder.codingPath, destination: .root)
      encoder.set(try nested.box(value) ?? .object(ObjectBox()))
    }
  }
}
