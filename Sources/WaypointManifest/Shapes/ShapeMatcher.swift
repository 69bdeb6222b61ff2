import Foundation
import Waypoint

/// Walks a payload's `JSONStructure` along a ``RouteShape`` the way `JSONDecoder` walks it along a
/// type: the one judge of whether a payload decodes, for offline prediction
/// (``RouteShape/match(json:references:limits:)``).
package struct ShapeMatcher {
  /// A definite decoding error.
  package struct Failure {
    package var path: [PathKey]
    package var message: String
  }

  /// One step of the path being walked, made into a ``PathKey`` only for a failure.
  private enum Step {
    case key(String)
    case index(Int)
    case dictionaryKey(String)

    package var key: PathKey {
      switch self {
      case .key(let name): PathKey(name)
      case .index(let index): PathKey(index: index)
      case .dictionaryKey(let key): PathKey(dictionaryKey: key)
      }
    }
  }

  /// Steps that consume no JSON (references, optionals) allowed in a row before a cycle is assumed.
  package static let maxHops = 64
  /// Deeper payloads are left to the app (`JSONDecoder` itself stops at 512 levels).
  package static let maxDepth = 512

  /// The work one match may do, in units of a value checked, a member's key compared or an enum
  /// value compared. A payload is at most 64 KiB, but a manifest comes from elsewhere: fields,
  /// cases or enum values by the hundred thousand, or references that walk the same members again
  /// and again, could make one match take minutes. Past it, the rest is left to the app.
  package static let budget = 1 << 20

  package typealias Value = JSONStructure.Value

  package let json: JSONStructure
  package let references: (String) -> RouteShape?
  /// The first place that only the app can judge, if any.
  private(set) var undetermined: String?
  /// Where the walk stands.
  private var path: [Step] = []
  /// The work done so far (``budget``).
  private var spent = 0

  package init(_ json: JSONStructure, references: @escaping (String) -> RouteShape?) {
    self.json = json
    self.references = references
  }

  /// The first definite error of `value` read as `shape`, `nil` when there is none.
  package mutating func check(_ shape: RouteShape, _ value: Value, hops: Int) -> Failure? {
    spent += 1
    guard !exhausted else { return outOfBudget() }
    guard path.count <= Self.maxDepth else {
      return leaveToApp("nested deeper than \(Self.maxDepth) levels")
    }
    switch shape {
    case .string:
      return readString(value, as: "String").failure
    case .integer(let type):
      return checkInteger(type, value)
    case .double, .date:
      return checkNumber(value, as: shape == .date ? "Date" : "Double") {
        json.read($0, as: Double.self) != nil
      }
    case .float:
      return checkNumber(value, as: "Float") { json.read($0, as: Float.self) != nil }
    case .bool:
      guard json.kind(value) == .bool else { return mismatch("Bool", value) }
    case .uuid:
      let read = readString(value, as: "UUID")
      guard let text = read.text else { return read.failure }
      guard UUID(uuidString: text) != nil else {
        return failure("\(quoted(text)) is not a UUID")
      }
    case .url:
      let read = readString(value, as: "URL")
      guard let text = read.text else { return read.failure }
      guard URL(string: text) != nil else {
        return failure("\(quoted(text)) is not a URL")
      }
    case .optional(let wrapped):
      if json.kind(value) == .null { return nil }
      return check(wrapped, value, hops: hops + 1)
    case .array(let element):
      guard json.kind(value) == .array else { return mismatch("an array", value) }
      for (index, item) in json.elements(of: value).enumerated() {
        if let failure = checking(.index(index), element, item) { return failure }
      }
    case .dictionary(let valueShape):
      guard json.kind(value) == .object else { return mismatch("an object", value) }
      guard let members = keyedMembers(value) else { return unreadableKey() }
      for (key, member) in members.sorted(by: { $0.key < $1.key }) {
        if let failure = checking(.dictionaryKey(key), valueShape, member) { return failure }
      }
    case .object(let fields):
      guard json.kind(value) == .object else { return mismatch("an object", value) }
      guard keysRead(value) else { return unreadableKey() }
      return checkFields(fields, value)
    case .enumeration(let cases):
      return checkEnumeration(cases, value)
    case .stringEnum(let values):
      let read = readString(value, as: "String")
      guard let text = read.text else { return read.failure }
      spent += values.count
      guard !exhausted else { return outOfBudget() }
      guard values.contains(text) else {
        return failure("\(quoted(text)) is not one of \(list(values))")
      }
    case .integerEnum(let values):
      guard json.kind(value) == .number else { return mismatch("an integer", value) }
      spent += values.count
      guard !exhausted else { return outOfBudget() }
      if let number = json.plainInteger(value) ?? json.read(value, as: Int64.self),
        values.contains(number)
      {
        return nil
      }
      return failure(
        "\(json.kindDescription(value)) is not one of \(list(values.map(String.init)))")
    case .reference(let tag):
      guard hops < Self.maxHops else {
        return leaveToApp("the references to \(tag) form a cycle")
      }
      guard let target = references(tag) else {
        return leaveToApp("\(tag) is not described in the manifest")
      }
      return check(target, value, hops: hops + 1)
    case .opaque(let reason):
      return leaveToApp(reason)
    }
    return nil
  }

  /// `value` checked as `shape` one step further down the path.
  private mutating func checking(_ step: Step, _ shape: RouteShape, _ value: Value) -> Failure? {
    path.append(step)
    defer { path.removeLast() }
    return check(shape, value, hops: 0)
  }

  /// Whether the work done passed ``budget``.
  private var exhausted: Bool { spent > Self.budget }

  /// Leaves the rest of the match to the app, its budget spent.
  private mutating func outOfBudget() -> Failure? {
    leaveToApp("judging the payload takes more than \(Self.budget) steps")
  }

  /// Whether every key of the object reads, as a keyed container needs.
  private mutating func keysRead(_ object: Value) -> Bool {
    for (key, _) in json.members(of: object) {
      spent += 1
      guard json.stringReads(key) else { return false }
    }
    return true
  }

  /// The value of the first member whose key reads as `name` (the first of duplicate keys wins).
  private mutating func member(_ name: String, of object: Value) -> Value? {
    for (key, value) in json.members(of: object) {
      spent += 1
      if (try? json.string(key, is: name)) == true { return value }
    }
    return nil
  }

  /// The members by key as a keyed container reads them: every key must read, and the first of
  /// duplicate keys wins; `nil` when a key does not read.
  private mutating func keyedMembers(_ object: Value) -> [String: Value]? {
    var members: [String: Value] = [:]
    defer { spent += members.count }
    for (key, value) in json.members(of: object) {
      guard let name = try? json.string(key) else { return nil }
      if members[name] == nil { members[name] = value }
    }
    return members
  }

  private mutating func checkFields(_ fields: [RouteShape.Field], _ object: Value) -> Failure? {
    for field in fields {
      // Each field is a step, even one looked up in an empty object.
      spent += 1
      guard !exhausted else { return outOfBudget() }
      path.append(.key(field.name))
      defer { path.removeLast() }
      guard let member = member(field.name, of: object) else {
        guard field.isRequired else { continue }
        return failure("no value for key \(quoted(field.name))")
      }
      if json.kind(member) == .null && !field.isRequired { continue }
      if let failure = check(field.shape, member, hops: 0) { return failure }
    }
    return nil
  }

  private mutating func checkEnumeration(_ cases: [RouteShape.Case], _ value: Value) -> Failure? {
    guard json.kind(value) == .object else {
      return mismatch("an object with one case key", value)
    }
    guard keysRead(value) else { return unreadableKey() }
    // The one case named, or the first of several.
    var chosen: (enumCase: RouteShape.Case, payload: Value)?
    var several = false
    for enumCase in cases {
      spent += 1
      guard !exhausted else { return outOfBudget() }
      guard let payload = member(enumCase.name, of: value) else { continue }
      if let first = chosen {
        several = several || first.enumCase.name != enumCase.name
      } else {
        chosen = (enumCase, payload)
      }
    }
    guard !several, let (chosen, payload) = chosen else {
      var present: [String] = []
      for enumCase in cases {
        spent += 1
        guard !exhausted else { return outOfBudget() }
        if !present.contains(enumCase.name), member(enumCase.name, of: value) != nil {
          present.append(enumCase.name)
        }
      }
      let keys = keyedMembers(value)?.keys.sorted() ?? []
      let found =
        present.isEmpty
        ? "found " + (keys.isEmpty ? "an empty object" : "keys \(list(keys))")
        : "found several: \(list(present))"
      return failure("expected exactly one case key of \(list(cases.map(\.name))); \(found)")
    }
    path.append(.key(chosen.name))
    defer { path.removeLast() }
    guard json.kind(payload) == .object else { return mismatch("the case's object", payload) }
    guard keysRead(payload) else { return unreadableKey() }
    return checkFields(chosen.fields, payload)
  }

  private func checkInteger(_ type: RouteShape.IntegerType, _ value: Value) -> Failure? {
    guard json.kind(value) == .number else { return mismatch(type.rawValue, value) }
    if type.reads(value, in: json) { return nil }
    let why: String
    if let number = json.read(value, as: Double.self) {
      why = number.rounded() == number ? "does not fit in" : "is not a whole number for"
    } else {
      why = "is not a number JSONDecoder reads as"
    }
    return failure("\(json.kindDescription(value)) \(why) \(type.rawValue)")
  }

  private func checkNumber(_ value: Value, as type: String, reads: (Value) -> Bool) -> Failure? {
    guard json.kind(value) == .number else { return mismatch(type, value) }
    if json.plainInteger(value) != nil || reads(value) { return nil }
    return failure("\(json.kindDescription(value)) does not fit in \(type)")
  }

  /// The string at `value`, or why it does not read as one.
  private func readString(_ value: Value, as type: String) -> (text: String?, failure: Failure?) {
    guard json.kind(value) == .string else { return (nil, mismatch(type, value)) }
    guard let text = try? json.string(value) else {
      return (nil, failure("the string is not valid JSON"))
    }
    return (text, nil)
  }

  private func failure(_ message: String) -> Failure {
    Failure(path: path.map(\.key), message: message)
  }

  private func unreadableKey() -> Failure {
    failure("a key of the object is not valid JSON")
  }

  private mutating func leaveToApp(_ reason: String) -> Failure? {
    if undetermined == nil {
      let place = CodingPathDescription.dotted(path.map(\.key))
      undetermined = place.isEmpty ? reason : "at \(place): \(reason)"
    }
    return nil
  }

  private func mismatch(_ expected: String, _ value: Value) -> Failure {
    failure("expected \(expected), found \(json.kindDescription(value))")
  }

  private func quoted(_ text: String) -> String {
    JSONValue.string(text).jsonText
  }

  private func list(_ names: [String]) -> String {
    let shown = names.prefix(8).joined(separator: ", ")
    return names.count > 8 ? "\(shown), … (\(names.count) in all)" : shown
  }
}
