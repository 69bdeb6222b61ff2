import Foundation
import Waypoint

extension RestoreOutcome {
  /// The most bytes of a line ``init(jsonLine:)`` reads: 32 times ``maxBytes``, room for records of
  /// a later build of this format that carry more (unknown keys are skipped), and a bound on the
  /// work one hostile line costs.
  public static let maxLineBytes = 64 << 10

  /// The largest ``durationMicroseconds`` a record may hold: the cap the writer puts on a duration
  /// too long to count (`Int.max / 2`).
  public static let maxDurationMicroseconds = Int.max / 2

  /// Why a line is not a record this build reads.
  public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem, with the field it concerns.
    public enum Code: Hashable, Sendable {
      /// The line is not JSON (or nests deeper than a record can).
      case notJSON
      /// The line is longer than ``RestoreOutcome/maxLineBytes``.
      case tooLarge
      /// The record is of a later format than ``RestoreOutcome/currentFormat``, the one given.
      case newerFormat(Int)
      /// A field the format requires is missing: its path (`items[2].count`).
      case missingField(String)
      /// A field holds another JSON type than the format's: its path.
      case wrongType(String)
      /// A field holds a value outside the format's: an unknown outcome, a negative or absurd
      /// count, a name over ``RestoreOutcome/maxNameBytes``, a field given twice. Its path.
      case invalidValue(String)
    }

    /// The kind of problem.
    public var code: Code
    /// One line saying what is wrong, for messages: `items[0].count: -3 is not a count (1 to 10^12)`.
    public var message: String

    /// An error of `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
      self.code = code
      self.message = message
    }

    /// The one-line message.
    public var description: String { message }

    /// The code's name in messages and JSON output: `notJSON`, `newerFormat`, ….
    public var codeName: String {
      switch code {
      case .notJSON: "notJSON"
      case .tooLarge: "tooLarge"
      case .newerFormat: "newerFormat"
      case .missingField: "missingField"
      case .wrongType: "wrongType"
      case .invalidValue: "invalidValue"
      }
    }
  }

  /// Reads a record written by ``jsonLine`` (by this build or an earlier one of the same format),
  /// strictly: every field of the format must be there with its JSON type and within its bounds
  /// (counts from 1, ages, versions and omitted items from 0, all at most ``maxCount``; names at
  /// most ``maxNameBytes`` bytes); a key the format does not know is skipped, so that a later
  /// build may add fields within a format. Leading and trailing whitespace is allowed; a final
  /// `\r` too.
  ///
  /// - Throws: ``ReadError``: ``ReadError/Code/tooLarge`` over ``maxLineBytes`` (before anything
  ///   is read), ``ReadError/Code/notJSON``, ``ReadError/Code/newerFormat(_:)`` for a `format`
  ///   over ``currentFormat`` (whatever else the record holds), or the first field missing, of the
  ///   wrong type or out of bounds.
  public init(jsonLine line: some Collection<UInt8>) throws(ReadError) {
    let structure: JSONStructure
    do {
      structure = try JSONStructure(scanning: line, byteLimit: Self.maxLineBytes, maxDepth: 16)
    } catch {
      if error.code == .tooLarge {
        throw ReadError(
          .tooLarge, "the line is over the limit of \(Self.maxLineBytes) bytes for a record")
      }
      throw ReadError(.notJSON, "\(error)")
    }
    var reader = Reader(structure: structure)
    self = try reader.record()
  }
}

/// A field of a record: its value, and how to name it in a message (made only for one).
private struct Field {
  let value: JSONStructure.Value
  /// The item's index, for a field of an item.
  let item: Int?
  let key: StaticString

  /// `format`, `items[2].count`.
  var name: String { item.map { "items[\($0)].\(key)" } ?? "\(key)" }
}

/// Reads a record's fields out of its scanned structure.
private struct Reader {
  typealias ReadError = RestoreOutcome.ReadError
  typealias Value = JSONStructure.Value

  let structure: JSONStructure

  /// The record's keys, in the format's order: a member's place in this list is its slot.
  static let recordKeys: [StaticString] = [
    "format", "appBuild", "routeSchemaVersion", "storedRouteSchemaVersion", "outcome",
    "snapshotAgeHours", "durationMicroseconds", "crashLoop", "items", "omittedItems",
  ]

  /// An item's keys, in the format's order.
  static let itemKeys: [StaticString] = [
    "kind", "location", "stack", "tag", "fromTag", "reason", "fromVersion", "toVersion", "count",
  ]

  static let outcomes: [StaticString] = ["restored", "partial", "root"]
  static let outcomeValues: [RestoreReport.Outcome] = [.restored, .partial, .root]
  static let crashLoops: [StaticString] = ["none", "setAside"]
  static let crashLoopValues: [RestoreOutcome.CrashLoop] = [.none, .setAside]
  static let kinds: [StaticString] = ["dropped", "migrated"]
  static let kindValues: [RestoreOutcome.Item.Kind] = [.dropped, .migrated]
  static let locations: [StaticString] = ["stack", "tab", "split", "sheet", "snapshot"]
  static let locationValues: [RestoreOutcome.LocationKind] = [
    .stack, .tab, .split, .sheet, .snapshot,
  ]

  /// The known members of `object` by slot (their keys are `keys`), each required and given at
  /// most once; `item` is the item's index for an item.
  private func readFields(of object: Value, keys: [StaticString], item: Int?) throws(ReadError)
    -> [Field]
  {
    var found = [Value?](repeating: nil, count: keys.count)
    for (key, value) in structure.members(of: object) {
      let slot: Int?
      do throws(JSONProblem) {
        slot = try structure.string(key, among: keys)
      } catch {
        throw ReadError(.notJSON, "not JSON: \(error)")
      }
      guard let slot else { continue }
      guard found[slot] == nil else {
        let name = Field(value: value, item: item, key: keys[slot]).name
        throw ReadError(.invalidValue(name), "\(name): given twice")
      }
      found[slot] = value
    }
    var fields: [Field] = []
    fields.reserveCapacity(keys.count)
    for (slot, value) in found.enumerated() {
      guard let value else {
        let name = Field(value: object, item: item, key: keys[slot]).name
        throw ReadError(.missingField(name), "\(name): missing")
      }
      fields.append(Field(value: value, item: item, key: keys[slot]))
    }
    return fields
  }

  mutating func record() throws(ReadError) -> RestoreOutcome {
    let root = structure.root
    guard structure.kind(root) == .object else {
      throw ReadError(
        .wrongType("record"), "record: expected an object, found \(structure.kindDescription(root))"
      )
    }
    // The format first: a later format's record is refused as such, whatever its fields.
    var formatValue: Value?
    for (key, value) in structure.members(of: root)
    where (try? structure.string(key, is: "format")) == true {
      formatValue = value
    }
    guard let formatValue else { throw ReadError(.missingField("format"), "format: missing") }
    let format = try integer(Field(value: formatValue, item: nil, key: "format"), in: 1...Int.max)
    guard format <= RestoreOutcome.currentFormat else {
      throw ReadError(
        .newerFormat(format),
        "format \(format) is newer than this build reads (\(RestoreOutcome.currentFormat))")
    }
    let fields = try readFields(of: root, keys: Self.recordKeys, item: nil)
    let appBuild = try optionalName(fields[1])
    let routeSchemaVersion = try integer(fields[2], in: 0...RestoreOutcome.maxCount)
    let stored = try optional(fields[3]) { field throws(ReadError) in
      try integer(field, in: 0...RestoreOutcome.maxCount)
    }
    let outcome = try choice(fields[4], Self.outcomes, Self.outcomeValues)
    let age = try optional(fields[5]) { field throws(ReadError) in
      try integer(field, in: 0...RestoreOutcome.maxCount)
    }
    let duration = try integer(fields[6], in: 0...RestoreOutcome.maxDurationMicroseconds)
    let crashLoop = try choice(fields[7], Self.crashLoops, Self.crashLoopValues)
    let itemsValue = fields[8].value
    guard structure.kind(itemsValue) == .array else {
      throw wrongType(fields[8], expected: "an array")
    }
    var items: [RestoreOutcome.Item] = []
    items.reserveCapacity(structure.count(itemsValue))
    for (index, element) in structure.elements(of: itemsValue).enumerated() {
      items.append(try item(element, index: index))
    }
    let omitted = try integer(fields[9], in: 0...RestoreOutcome.maxCount)
    return RestoreOutcome(
      format: format, appBuild: appBuild, routeSchemaVersion: routeSchemaVersion,
      storedRouteSchemaVersion: stored, outcome: outcome, snapshotAgeHours: age,
      durationMicroseconds: duration, crashLoop: crashLoop, items: items, omittedItems: omitted)
  }

  private func item(_ object: Value, index: Int) throws(ReadError) -> RestoreOutcome.Item {
    guard structure.kind(object) == .object else {
      let name = "items[\(index)]"
      throw ReadError(
        .wrongType(name),
        "\(name): expected an object, found \(structure.kindDescription(object))")
    }
    let fields = try readFields(of: object, keys: Self.itemKeys, item: index)
    let kind = try choice(fields[0], Self.kinds, Self.kindValues)
    let location = try choice(fields[1], Self.locations, Self.locationValues)
    let stack = try optionalName(fields[2])
    let tag = try optionalName(fields[3])
    let fromTag = try optionalName(fields[4])
    let reason = try optionalName(fields[5])
    let fromVersion = try optional(fields[6]) { field throws(ReadError) in
      try integer(field, in: 0...RestoreOutcome.maxCount)
    }
    let toVersion = try optional(fields[7]) { field throws(ReadError) in
      try integer(field, in: 0...RestoreOutcome.maxCount)
    }
    let count = try integer(fields[8], in: 1...RestoreOutcome.maxCount)
    return RestoreOutcome.Item(
      kind: kind, location: location, stack: stack, tag: tag, fromTag: fromTag, reason: reason,
      fromVersion: fromVersion, toVersion: toVersion, count: count)
  }

  // MARK: Values

  private func wrongType(_ field: Field, expected: String) -> ReadError {
    let name = field.name
    return ReadError(
      .wrongType(name),
      "\(name): expected \(expected), found \(structure.kindDescription(field.value))")
  }

  /// An integer within `bounds`, written as one: `1.0` and `1e2` are refused as another type.
  private func integer(_ field: Field, in bounds: ClosedRange<Int>) throws(ReadError) -> Int {
    let value = field.value
    guard structure.kind(value) == .number else { throw wrongType(field, expected: "an integer") }
    let read: Int?
    if let plain = structure.plainInteger(value) {
      read = Int(exactly: plain)
    } else {
      // Over 18 digits, or not an integer as written.
      let text = structure.text(value)
      guard text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) else {
        throw wrongType(field, expected: "an integer")
      }
      read = text.utf8.count <= 20 ? Int(text) : nil
    }
    guard let read, bounds.contains(read) else {
      let text = structure.text(value)
      let shown = text.count > 24 ? text.prefix(24) + "…" : text
      let name = field.name
      throw ReadError(
        .invalidValue(name),
        "\(name): \(shown) is out of bounds (\(bounds.lowerBound) to \(bounds.upperBound))")
    }
    return read
  }

  /// A string of at most ``RestoreOutcome/maxNameBytes`` bytes, or `null`.
  private func optionalName(_ field: Field) throws(ReadError) -> String? {
    try optional(field) { field throws(ReadError) in
      guard structure.kind(field.value) == .string else {
        throw wrongType(field, expected: "a string or null")
      }
      let text: String
      do throws(JSONProblem) {
        text = try structure.string(field.value)
      } catch {
        throw ReadError(.notJSON, "not JSON: \(error)")
      }
      guard text.utf8.count <= RestoreOutcome.maxNameBytes else {
        let name = field.name
        throw ReadError(
          .invalidValue(name),
          "\(name): \(text.utf8.count) bytes, over the \(RestoreOutcome.maxNameBytes) of a name")
      }
      return text
    }
  }

  /// `nil` for `null`, else the value `read` reads.
  private func optional<T>(_ field: Field, _ read: (Field) throws(ReadError) -> T)
    throws(ReadError) -> T?
  {
    structure.kind(field.value) == .null ? nil : try read(field)
  }

  /// The value of `choices[i]` for the string that reads as `names[i]`.
  private func choice<T>(_ field: Field, _ names: [StaticString], _ choices: [T])
    throws(ReadError) -> T
  {
    guard structure.kind(field.value) == .string else {
      throw wrongType(field, expected: "a string")
    }
    let found: Int?
    do throws(JSONProblem) {
      found = try structure.string(field.value, among: names)
    } catch {
      throw ReadError(.notJSON, "not JSON: \(error)")
    }
    guard let found else {
      let allowed = names.map { "\($0)" }.joined(separator: ", ")
      let name = field.name
      throw ReadError(.invalidValue(name), "\(name): expected one of \(allowed)")
    }
    return choices[found]
  }
}
