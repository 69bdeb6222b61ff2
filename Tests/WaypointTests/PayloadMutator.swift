import Foundation
import Waypoint
import WaypointManifest

/// Damages a valid payload the way schema changes and hand edits do: one mutation at one place
/// (dropped or renamed keys, changed types, numbers out of range or fractional, renamed cases,
/// extra keys, nulls, wrong nesting), deterministic for a seed.
struct PayloadMutator {
  /// Keys worth renaming to or adding: field and case names of the shape.
  var vocabulary: [String]
  var generator: SplitMix64

  /// Raw JSON text that stands in the output where `"@@raw<index>@@"` stands in the encoded value
  /// (numbers as no `JSONValue` holds them, strings `JSONDecoder` refuses, duplicate keys).
  var raws: [String] = []

  /// Number spellings `JSONEncoder` never writes; all parse as `JSONValue`.
  private static let spellings = [
    "1.0", "1e2", "1E2", "-0", "-0.0", "100e-2", "0.1e1", "0.5", "-1", "127", "128", "-129", "255",
    "256", "32767", "32768", "65536", "2147483648", "-2147483649", "4294967296",
    "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "1e20", "3.4028235e38", "3.5e38", "1e-45", "1e-46", "1.0000000000000001",
  ]

  /// Number edge cases of every width, including what only the scanner accepts: the boundaries of
  /// each integer type in several spellings, Float's largest value and its rounding boundary
  /// written as an integer, values around 2^-150 (Float's half-way to zero), Double's limits, and
  /// texts that scan as numbers but do not read (`01`, `1.`, `-`, `1e`, 400 digits, `1e400`).
  static let edgeNumbers: [String] = {
    var numbers = [
      "-128", "-128.0", "-1.28e2", "127e0", "-32768", "-32769", "32767.0", "-2147483648",
      "2147483647", "4294967295", "4294967295.0", "-9223372036854775808", "9223372036854775807",
      "-9223372036854775809", "18446744073709551615", "1.8446744073709552e19",
      "340282356779733661637539395458142568447", "340282356779733661637539395458142568448",
      "-340282356779733661637539395458142568447", "3.4028235677973366e38", "3.40282357e38",
      "7.0064923216240862e-46", "7.006492321624085e-46", "-7.0064923216240862e-46",
      "1.401298464324817e-45", "1.1754942e-38", "1.7976931348623157e308", "1.8e308",
      "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400",
      "1e400", "-1e400", "01", "-01", "1.", "-", "1e", "1e+", "--1", "1.2.3", "1-2", "0e0", "-0e-0",
      "1E+2", "1e-0", "10e-1",
    ]
    numbers.append(String(repeating: "9", count: 400))
    numbers.append("-" + String(repeating: "1", count: 40))
    return numbers
  }()

  /// Strings as written between quotes: valid ones, and ones `JSONDecoder` refuses only when read.
  static let edgeStrings = [
    #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\q""#, "\"a\nb\"", "\"tab\there\"",
    #""\u12G4""#, #""\u0000""#, #""\/""#, #""\ud83d\ude00""#, "\"\u{7F}\"", #""é""#,
  ]

  /// Members a type never reads, as raw text: nothing in them may matter.
  static let unreadMembers: [String] =
    edgeNumbers + edgeStrings + [
      "[1,]", #"{"a":1,}"#, "[]", "{}", "null", "true", #"{"\q":1}"#, #"[1e400,"\q"]"#,
    ]

  /// Keys that name no field or case.
  static let strangerKeys = ["zz", "note", "", "_2", "Home", "\u{E9}", "e\u{301}"]

  private static let wrongValues: [JSONValue] = [
    .string("x"), .string(""), .bool(true), .integer(1), .double(1.5), .array([]), .object([:]),
    .integer(-1), .null,
  ]

  /// The mutated payload's text.
  mutating func mutate(_ value: JSONValue) -> String {
    raws = []
    let paths = Self.paths(in: value)
    let path = paths[Int.random(in: 0..<paths.count, using: &generator)]
    let mutated = Self.replacing(value, at: path[...]) {
      mutateNode($0, parentIsObject: path.last?.key != nil)
    }
    return text(mutated)
  }

  /// A node that stands for raw text.
  private mutating func raw(_ text: String) -> JSONValue {
    raws.append(text)
    return .string("@@raw\(raws.count - 1)@@")
  }

  /// One change to one node; `nil` removes it from its object or array.
  private mutating func mutateNode(_ node: JSONValue, parentIsObject: Bool) -> JSONValue? {
    switch Int.random(in: 0..<14, using: &generator) {
    case 10, 11:
      // A member never read, or an extra key beside an enum's case key.
      guard case .object(var members) = node else { break }
      let key = pick(Self.strangerKeys + ["extra\(members.count)"])
      guard members[key] == nil else { break }
      members[key] = raw(pick(Self.unreadMembers))
      return .object(members)
    case 12:
      // A number edge case, or a string that only fails when read, where the type reads it.
      if case .number = node.category { return raw(pick(Self.edgeNumbers)) }
      if case .string = node { return raw(pick(Self.edgeStrings)) }
    case 13:
      // A duplicate key: JSONDecoder reads the first.
      guard case .object(let members) = node, let key = members.keys.sorted().first else { break }
      let copy = pick(
        [node, .null, .object([:]), .integer(1), .string("x")] + Array(members.values))
      let parts = members.sorted { $0.key < $1.key }.map {
        (JSONValue.string($0.key).jsonText, $0.value)
      }
      let duplicate = (JSONValue.string(key).jsonText, copy)
      let ordered = Bool.random(using: &generator) ? parts + [duplicate] : [duplicate] + parts
      var text = "{"
      for (index, part) in ordered.enumerated() {
        text += (index > 0 ? "," : "") + part.0 + ":" + part.1.jsonText
      }
      return raw(text + "}")
    default: break
    }
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: return parentIsObject ? nil : .null
    case 1: return pick(Self.wrongValues)
    case 2:
      return .array([node])
    case 3:
      if case .number = node.category {
        return raw(pick(Self.spellings + Self.nearby(node)))
      }
      return .object([pick(vocabulary + ["k"]): node])
    default: break
    }
    switch node {
    case .object(var members):
      let keys = members.keys.sorted()
      switch Int.random(in: 0..<4, using: &generator) {
      case 0 where !keys.isEmpty:
        let key = pick(keys)
        let renamed = pick(vocabulary + [key + "x", key.uppercased(), "_0", "_1"])
        let member = members.removeValue(forKey: key)
        members[renamed] = member
      case 1 where !keys.isEmpty:
        members.removeValue(forKey: pick(keys))
      case 2 where members.count == 1:
        return members.values.first
      default:
        members[pick(vocabulary + ["extra"])] = pick(Self.wrongValues + [.object([:])])
      }
      return .object(members)
    case .array(var items):
      switch Int.random(in: 0..<3, using: &generator) {
      case 0 where !items.isEmpty:
        items.remove(at: Int.random(in: 0..<items.count, using: &generator))
      case 1 where !items.isEmpty: items.append(items[0])
      default: items.append(pick(Self.wrongValues))
      }
      return .array(items)
    case .string(let text):
      return .string(
        pick(
          [
            "", " " + text, text.lowercased(), String(text.dropLast()), text + "x", "http://[::1",
            "a b", "E621E1F8C36C495A93FC0C247A3E6E5F", text.uppercased(),
          ] + vocabulary))
    case .integer, .unsignedInteger, .double:
      return raw(pick(Self.spellings + Self.nearby(node)))
    case .bool(let flag):
      return pick([.bool(!flag), .integer(flag ? 1 : 0), .string("\(flag)")])
    case .null:
      return pick(Self.wrongValues)
    }
  }

  private mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[Int.random(in: 0..<elements.count, using: &generator)]
  }

  /// Spellings of the same number, and its neighbours.
  private static func nearby(_ node: JSONValue) -> [String] {
    switch node {
    case .integer(let number):
      [
        "\(number).0", "\(number)e0", "\(number &+ 1)", "\(number &- 1)", "\(0 &- number)",
        "\(number).5",
      ]
    case .unsignedInteger(let number): ["\(number).0", "\(number)e0", "-\(number)"]
    case .double(let number): ["\(number)e1", "\(-number)", "\(number * 1e30)"]
    default: []
    }
  }

  /// Every node's path, the root's included.
  private static func paths(in value: JSONValue) -> [[Step]] {
    var result: [[Step]] = [[]]
    switch value {
    case .object(let members):
      for (key, member) in members.sorted(by: { $0.key < $1.key }) {
        result += paths(in: member).map { [Step(key: key)] + $0 }
      }
    case .array(let items):
      for (index, item) in items.enumerated() {
        result += paths(in: item).map { [Step(index: index)] + $0 }
      }
    default: break
    }
    return result
  }

  private static func replacing(
    _ value: JSONValue, at path: ArraySlice<Step>, with change: (JSONValue) -> JSONValue?
  ) -> JSONValue? {
    guard let step = path.first else { return change(value) }
    switch value {
    case .object(var members):
      guard let key = step.key, let member = members[key] else { return value }
      members[key] = replacing(member, at: path.dropFirst(), with: change)
      return .object(members)
    case .array(var items):
      guard let index = step.index, items.indices.contains(index) else { return value }
      if let item = replacing(items[index], at: path.dropFirst(), with: change) {
        items[index] = item
      } else {
        items.remove(at: index)
      }
      return .array(items)
    default:
      return value
    }
  }

  /// The value's text with every raw stand-in replaced by its text.
  private func text(_ value: JSONValue?) -> String {
    var text = (value ?? .null).jsonText
    while let start = text.range(of: "\"@@raw") {
      guard let end = text[start.upperBound...].range(of: "@@\""),
        let index = Int(text[start.upperBound..<end.lowerBound]), raws.indices.contains(index)
      else { break }
      text.replaceSubrange(start.lowerBound..<end.upperBound, with: raws[index])
    }
    return text
  }

  struct Step {
    var key: String?
    var index: Int?

    init(key: String) { self.key = key }
    init(index: Int) { self.index = index }
  }
}

extension JSONValue {
  enum Category { case number, other }

  var category: Category {
    switch self {
    case .integer, .unsignedInteger, .double: .number
    default: .other
    }
  }
}

extension RouteShape {
  /// Field and case names anywhere in the shape.
  var vocabulary: [String] {
    switch self {
    case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped): wrapped.vocabulary
    case .object(let fields): fields.flatMap { [$0.name] + $0.shape.vocabulary }
    case .enumeration(let cases):
      cases.flatMap { [$0.name] + $0.fields.flatMap { [$0.name] + $0.shape.vocabulary } }
    case .stringEnum(let values): values
    default: []
    }
  }
}
