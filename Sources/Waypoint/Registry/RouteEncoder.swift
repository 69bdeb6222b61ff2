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
/// The values of one encoding are slots of one array (a tree by indices), so that an encoding
/// allocates little beyond what `Encoder`'s containers themselves box; the encoders and
/// containers handed to a value's `encode(to:)` are two words each: the array and a slot.
package enum RouteEncoder {
  /// The JSON of `value`.
  ///
  /// - Throws: `EncodingError` where `JSONEncoder` throws one: a number that is not finite, or a
  ///   value that encodes nothing; and what the value's own `encode(to:)` throws.
  package static func encode(_ value: some Encodable) throws -> String {
    let tree = Tree()
    try tree.encode(value, into: 0)
    guard tree.slots[0].kind != .unset else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [],
          debugDescription: "Top-level \(type(of: value)) did not encode any values."))
    }
    var writer = JSONWriter(capacity: 64)
    tree.write(0, to: &writer)
    return writer.finishString()
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
}

extension RouteEncoder {
  /// One encoding's values. Slot 0 is the root; every other slot is a member of an object or an
  /// element of an array, linked from its container in the order it was added.
  ///
  /// Not thread-safe: one encoding at a time, as `Encoder` is used.
  final class Tree {
    enum Kind: UInt8 {
      /// Nothing encoded yet.
      case unset
      /// A scalar, its JSON text in `text`.
      case literal
      /// An `Int`, its value in `integer` (written without making its text first).
      case integer
      /// A string, escaped when written.
      case string
      case object
      case array
    }

    struct Slot {
      var kind = Kind.unset
      /// A literal's text, a string's value.
      var text = ""
      /// An integer's value.
      var integer = 0
      /// The member's key, for a member of an object.
      var key = ""
      var parent: Int32
      /// The element's index, for an element of an array.
      var position: Int32 = 0
      var firstChild: Int32 = -1
      var lastChild: Int32 = -1
      var next: Int32 = -1
      var childCount: Int32 = 0
    }

    var slots: [Slot]

    init() {
      slots = []
      slots.reserveCapacity(8)
      slots.append(Slot(parent: -1))
    }

    // MARK: Building

    /// Makes `slot` a scalar or a string.
    func set(_ slot: Int, _ kind: Kind, _ text: String) {
      Self.reset(&slots[slot], kind, text)
    }

    /// Makes `slot` the integer `value`.
    func set(_ slot: Int, integer value: Int) {
      Self.set(&slots[slot], integer: value)
    }

    private static func set(_ slot: inout Slot, integer value: Int) {
      reset(&slot, .integer, "")
      slot.integer = value
    }

    private static func reset(_ slot: inout Slot, _ kind: Kind, _ text: String) {
      slot.kind = kind
      slot.text = text
      slot.firstChild = -1
      slot.lastChild = -1
      slot.childCount = 0
    }

    /// Makes `slot` a container of `kind`, keeping its members when it is one already (a second
    /// `container(keyedBy:)` on the same encoder adds to the first).
    func makeContainer(_ slot: Int, _ kind: Kind) {
      Self.makeContainer(&slots[slot], kind)
    }

    private static func makeContainer(_ slot: inout Slot, _ kind: Kind) {
      guard slot.kind != kind else { return }
      reset(&slot, kind, "")
    }

    /// The slot of `object`'s member `key`: the one already there (emptied, as `JSONEncoder`
    /// replaces a key encoded again), or a new one.
    func member(_ key: String, of object: Int) -> Int {
      Self.member(key, of: object, in: &slots)
    }

    /// Makes `object`'s member `key` a scalar or a string (one access to the slots, as each of
    /// the calls below: each access of a class's stored array is checked for exclusivity).
    func setMember(_ key: String, of object: Int, _ kind: Kind, _ text: String) {
      Self.setMember(key, of: object, kind, text, in: &slots)
    }

    private static func setMember(
      _ key: String, of object: Int, _ kind: Kind, _ text: String, in slots: inout [Slot]
    ) {
      reset(&slots[member(key, of: object, in: &slots)], kind, text)
    }

    /// Makes `object`'s member `key` the integer `value`.
    func setMember(_ key: String, of object: Int, integer value: Int) {
      Self.setMember(key, of: object, integer: value, in: &slots)
    }

    private static func setMember(
      _ key: String, of object: Int, integer value: Int, in slots: inout [Slot]
    ) {
      set(&slots[member(key, of: object, in: &slots)], integer: value)
    }

    /// Makes `object`'s member `key` a container of `kind`, as `makeContainer` makes a slot one;
    /// returns its slot.
    func memberContainer(_ key: String, of object: Int, _ kind: Kind) -> Int {
      Self.memberContainer(key, of: object, kind, in: &slots)
    }

    private static func memberContainer(
      _ key: String, of object: Int, _ kind: Kind, in slots: inout [Slot]
    ) -> Int {
      let slot = member(key, of: object, in: &slots)
      makeContainer(&slots[slot], kind)
      return slot
    }

    /// A new element of `array`.
    func element(of array: Int) -> Int {
      Self.element(of: array, in: &slots)
    }

    private static func member(_ key: String, of object: Int, in slots: inout [Slot]) -> Int {
      var child = Int(slots[object].firstChild)
      while child >= 0 {
        if slots[child].key == key {
          reset(&slots[child], .unset, "")
          return child
        }
        child = Int(slots[child].next)
      }
      var slot = Slot(parent: Int32(object))
      slot.key = key
      return append(slot, to: object, in: &slots)
    }

    private static func element(of array: Int, in slots: inout [Slot]) -> Int {
      var slot = Slot(parent: Int32(array))
      slot.position = slots[array].childCount
      return append(slot, to: array, in: &slots)
    }

    private static func append(_ slot: Slot, to container: Int, in slots: inout [Slot]) -> Int {
      let index = slots.count
      slots.append(slot)
      if slots[container].lastChild >= 0 {
        slots[Int(slots[container].lastChild)].next = Int32(index)
      } else {
        slots[container].firstChild = Int32(index)
      }
      slots[container].lastChild = Int32(index)
      slots[container].childCount += 1
      return index
    }

    /// The coding path of `slot`: the keys and indices from the root down to it.
    func codingPath(_ slot: Int) -> [any CodingKey] {
      var path: [any CodingKey] = []
      var current = slot
      while current > 0 {
        let parent = Int(slots[current].parent)
        path.append(
          slots[parent].kind == .array
            ? PathKey(index: Int(slots[current].position)) : PathKey(slots[current].key))
        current = parent
      }
      return path.reversed()
    }

    /// Encodes `value` into `slot`: the types `JSONEncoder` writes in its own way (told by their
    /// type, not by a cast, which costs more than the rest of a route's encoding), or what the
    /// value's `encode(to:)` writes. The slot stays unset when the value encodes nothing.
    func encode<T: Encodable>(_ value: T, into slot: Int, key: (any CodingKey)? = nil) throws {
      // Each cast runs only for its own type, where it always succeeds: no cast of another type
      // is tried, and none can trap.
      if T.self == String.self, let string = value as? String {
        return set(slot, .string, string)
      }
      if T.self == Int.self, let integer = value as? Int {
        return set(slot, integer: integer)
      }
      if T.self == Bool.self, let bool = value as? Bool {
        return set(slot, .literal, bool ? "true" : "false")
      }
      if T.self == Double.self, let double = value as? Double {
        return try set(slot, .literal, RouteEncoder.text(double, key))
      }
      if T.self == Data.self, let data = value as? Data {
        return set(slot, .string, data.base64EncodedString())
      }
      if T.self == URL.self, let url = value as? URL {
        return set(slot, .string, url.absoluteString)
      }
      if T.self == Decimal.self, let decimal = value as? Decimal {
        return set(slot, .literal, decimal.description)
      }
      if T.self == Float.self, let float = value as? Float {
        return try set(slot, .literal, RouteEncoder.text(float, key))
      }
      if let integer = Self.integerText(value) { return set(slot, .literal, integer) }
      try value.encode(to: SlotEncoder(tree: self, slot: slot))
    }

    /// Encodes `value` into `slot`, as an empty object when it encodes nothing (what
    /// `JSONEncoder` writes for a nested value that encodes nothing).
    func encodeNested<T: Encodable>(_ value: T, into slot: Int, key: (any CodingKey)?) throws {
      try encode(value, into: slot, key: key)
      if slots[slot].kind == .unset { set(slot, .object, "") }
    }

    /// The digits of a value of a fixed-width integer type other than `Int`, `nil` for another
    /// type.
    private static func integerText<T>(_ value: T) -> String? {
      if T.self == Int64.self, let integer = value as? Int64 { return String(integer) }
      if T.self == UInt64.self, let integer = value as? UInt64 { return String(integer) }
      if T.self == Int32.self, let integer = value as? Int32 { return String(integer) }
      if T.self == UInt32.self, let integer = value as? UInt32 { return String(integer) }
      if T.self == Int16.self, let integer = value as? Int16 { return String(integer) }
      if T.self == UInt16.self, let integer = value as? UInt16 { return String(integer) }
      if T.self == Int8.self, let integer = value as? Int8 { return String(integer) }
      if T.self == UInt8.self, let integer = value as? UInt8 { return String(integer) }
      if T.self == UInt.self, let integer = value as? UInt { return String(integer) }
      return nil
    }

    // MARK: Writing

    /// Writes `slot` compact, objects' keys sorted by their UTF-8 bytes.
    func write(_ slot: Int, to writer: inout JSONWriter) {
      Self.write(slot, of: slots, to: &writer)
    }

    private static func write(_ slot: Int, of slots: [Slot], to writer: inout JSONWriter) {
      switch slots[slot].kind {
      case .unset:
        // A member whose value encoded nothing was made an empty object when it was encoded.
        writer.byte(0x7B)
        writer.byte(0x7D)
      case .literal:
        writer.ascii(slots[slot].text)
      case .integer:
        writer.digits(slots[slot].integer)
      case .string:
        writer.quoted(slots[slot].text, escapingSlashes: true)
      case .array:
        writer.byte(0x5B)
        var child = Int(slots[slot].firstChild)
        while child >= 0 {
          if child != Int(slots[slot].firstChild) { writer.byte(0x2C) }
          write(child, of: slots, to: &writer)
          child = Int(slots[child].next)
        }
        writer.byte(0x5D)
      case .object:
        writer.byte(0x7B)
        if membersSorted(slot, of: slots) {
          var member = Int(slots[slot].firstChild)
          while member >= 0 {
            if member != Int(slots[slot].firstChild) { writer.byte(0x2C) }
            writeMember(member, of: slots, to: &writer)
            member = Int(slots[member].next)
          }
        } else {
          var members: [Int] = []
          members.reserveCapacity(Int(slots[slot].childCount))
          var member = Int(slots[slot].firstChild)
          while member >= 0 {
            members.append(member)
            member = Int(slots[member].next)
          }
          members.sort { SceneSnapshot.precedes(slots[$0].key, slots[$1].key) }
          for (index, member) in members.enumerated() {
            if index > 0 { writer.byte(0x2C) }
            writeMember(member, of: slots, to: &writer)
          }
        }
        writer.byte(0x7D)
      }
    }

    /// Whether the members of `object` were added in the order their keys are written in (as a
    /// value's `CodingKeys` usually are declared), so that they need no sorting.
    private static func membersSorted(_ object: Int, of slots: [Slot]) -> Bool {
      var member = Int(slots[object].firstChild)
      while member >= 0 {
        let next = Int(slots[member].next)
        if next >= 0, !SceneSnapshot.precedes(slots[member].key, slots[next].key) { return false }
        member = next
      }
      return true
    }

    private static func writeMember(_ member: Int, of slots: [Slot], to writer: inout JSONWriter) {
      writer.quoted(slots[member].key, escapingSlashes: true)
      writer.byte(0x3A)
      write(member, of: slots, to: &writer)
    }
  }

  // MARK: Encoder and containers

  /// The encoder of one slot.
  struct SlotEncoder: Encoder {
    let tree: Tree
    let slot: Int
    var codingPath: [any CodingKey] { tree.codingPath(slot) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      tree.makeContainer(slot, .object)
      return KeyedEncodingContainer(KeyedContainer(tree: tree, slot: slot))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
      tree.makeContainer(slot, .array)
      return UnkeyedContainer(tree: tree, slot: slot)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
      SingleValueContainer(tree: tree, slot: slot)
    }
  }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let tree: Tree
    let slot: Int
    var codingPath: [any CodingKey] { tree.codingPath(slot) }

    func encodeNil(forKey key: Key) {
      tree.setMember(key.stringValue, of: slot, .literal, "null")
    }

    func encode(_ value: String, forKey key: Key) {
      tree.setMember(key.stringValue, of: slot, .string, value)
    }

    func encode(_ value: Int, forKey key: Key) {
      tree.setMember(key.stringValue, of: slot, integer: value)
    }

    func encode(_ value: Bool, forKey key: Key) {
      tree.setMember(key.stringValue, of: slot, .literal, value ? "true" : "false")
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try tree.encodeNested(value, into: tree.member(key.stringValue, of: slot), key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let member = tree.memberContainer(key.stringValue, of: slot, .object)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: tree, slot: member))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let member = tree.memberContainer(key.stringValue, of: slot, .array)
      return UnkeyedContainer(tree: tree, slot: member)
    }

    func superEncoder() -> any Encoder { superEncoder(named: "super") }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    /// An encoder of the member `name`, an empty object until something is encoded into it.
    private func superEncoder(named name: String) -> any Encoder {
      let member = tree.memberContainer(name, of: slot, .object)
      return SlotEncoder(tree: tree, slot: member)
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let tree: Tree
    let slot: Int
    var codingPath: [any CodingKey] { tree.codingPath(slot) }
    var count: Int { Int(tree.slots[slot].childCount) }

    func encodeNil() { tree.set(tree.element(of: slot), .literal, "null") }

    func encode<T: Encodable>(_ value: T) throws {
      let key = PathKey(index: count)
      try tree.encodeNested(value, into: tree.element(of: slot), key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      let element = tree.element(of: slot)
      tree.makeContainer(element, .object)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: tree, slot: element))
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let element = tree.element(of: slot)
      tree.makeContainer(element, .array)
      return UnkeyedContainer(tree: tree, slot: element)
    }

    func superEncoder() -> any Encoder {
      let element = tree.element(of: slot)
      tree.makeContainer(element, .object)
      return SlotEncoder(tree: tree, slot: element)
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer {
    let tree: Tree
    let slot: Int
    var codingPath: [any CodingKey] { tree.codingPath(slot) }

    func encodeNil() { tree.set(slot, .literal, "null") }

    func encode<T: Encodable>(_ value: T) throws {
      tree.set(slot, .unset, "")
      try tree.encodeNested(value, into: slot, key: nil)
    }
  }
}
