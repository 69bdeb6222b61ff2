import Foundation

/// Walks a ``JSONValue`` along a ``RouteShape`` the way `JSONDecoder` walks it along a type.
struct ShapeMatcher {
  /// A definite decoding error.
  struct Failure {
    var path: [PathKey]
    var message: String
  }

  /// Steps that consume no JSON (references, optionals) allowed in a row before a cycle is assumed.
  static let maxHops = 64
  /// Deeper payloads are left to the app (`JSONDecoder` itself stops at 512 levels).
  static let maxDepth = 512

  let references: (String) -> RouteShape?
  /// The first place that only the app can judge, if any.
  private(set) var undetermined: String?

  init(references: @escaping (String) -> RouteShape?) {
    self.references = references
  }

  mutating func check(_ shape: RouteShape, _ value: JSONNode, at path: [PathKey], hops: Int)
    -> Failure?
  {
    guard path.count <= Self.maxDepth else {
      return leaveToApp(path, "nested deeper than \(Self.maxDepth) levels")
    }
    switch shape {
    case .string:
      return readString(value, as: "String", path).failure
    case .integer(let type):
      return checkInteger(type, value, path)
    case .double, .date:
      return checkNumber(value, path, as: shape == .date ? "Date" : "Double") {
        $0.read(Double.self) != nil
      }
    case .float:
      return checkNumber(value, path, as: "Float") { $0.read(Float.self) != nil }
    case .bool:
      guard case .bool = value else { return mismatch("Bool", value, path) }
    case .uuid:
      let read = readString(value, as: "UUID", path)
      guard let text = read.text else { return read.failure }
      guard UUID(uuidString: text) != nil else {
        return Failure(path: path, message: "\(quoted(text)) is not a UUID")
      }
    case .url:
      let read = readString(value, as: "URL", path)
      guard let text = read.text else { return read.failure }
      guard URL(string: text) != nil else {
        return Failure(path: path, message: "\(quoted(text)) is not a URL")
      }
    case .optional(let wrapped):
      if value == .null { return nil }
      return check(wrapped, value, at: path, hops: hops + 1)
    case .array(let element):
      guard case .array(let items) = value else { return mismatch("an array", value, path) }
      for (index, item) in items.enumerated() {
        if let failure = check(element, item, at: path + [PathKey(index: index)], hops: 0) {
          return failure
        }
      }
    case .dictionary(let valueShape):
      guard case .object = value else { return mismatch("an object", value, path) }
      guard let members = value.keyedMembers else { return unreadableKey(path) }
      for (key, member) in members.sorted(by: { $0.key < $1.key }) {
        if let failure = check(
          valueShape, member, at: path + [PathKey(dictionaryKey: key)], hops: 0)
        {
          return failure
        }
      }
    case .object(let fields):
      guard case .object = value else { return mismatch("an object", value, path) }
      guard let members = value.keyedMembers else { return unreadableKey(path) }
      return checkFields(fields, members, path)
    case .enumeration(let cases):
      return checkEnumeration(cases, value, path)
    case .stringEnum(let values):
      let read = readString(value, as: "String", path)
      guard let text = read.text else { return read.failure }
      guard values.contains(text) else {
        return Failure(path: path, message: "\(quoted(text)) is not one of \(list(values))")
      }
    case .integerEnum(let values):
      if let number = value.read(Int64.self), values.contains(number) { return nil }
      guard case .number = value else { return mismatch("an integer", value, path) }
      return Failure(
        path: path,
        message: "\(value.kindDescription) is not one of \(list(values.map(String.init)))")
    case .reference(let tag):
      guard hops < Self.maxHops else {
        return leaveToApp(path, "the references to \(tag) form a cycle")
      }
      guard let target = references(tag) else {
        return leaveToApp(path, "\(tag) is not described in the manifest")
      }
      return check(target, value, at: path, hops: hops + 1)
    case .opaque(let reason):
      return leaveToApp(path, reason)
    }
    return nil
  }

  private mutating func checkFields(
    _ fields: [RouteShape.Field], _ members: [String: JSONNode], _ path: [PathKey]
  ) -> Failure? {
    for field in fields {
      let fieldPath = path + [PathKey(field.name)]
      guard let member = members[field.name] else {
        guard field.isRequired else { continue }
        return Failure(path: fieldPath, message: "no value for key \(quoted(field.name))")
      }
      if member == .null && !field.isRequired { continue }
      if let failure = check(field.shape, member, at: fieldPath, hops: 0) { return failure }
    }
    return nil
  }

  private mutating func checkEnumeration(
    _ cases: [RouteShape.Case], _ value: JSONNode, _ path: [PathKey]
  ) -> Failure? {
    guard case .object = value else {
      return mismatch("an object with one case key", value, path)
    }
    guard let members = value.keyedMembers else { return unreadableKey(path) }
    var present: [RouteShape.Case] = []
    for enumCase in cases where members[enumCase.name] != nil {
      if !present.contains(where: { $0.name == enumCase.name }) { present.append(enumCase) }
    }
    guard present.count == 1, let chosen = present.first else {
      let found =
        present.isEmpty
        ? "found " + (members.isEmpty ? "an empty object" : "keys \(list(members.keys.sorted()))")
        : "found several: \(list(present.map(\.name)))"
      return Failure(
        path: path, message: "expected exactly one case key of \(list(cases.map(\.name))); \(found)"
      )
    }
    let casePath = path + [PathKey(chosen.name)]
    let payload = members[chosen.name] ?? .null
    guard case .object = payload else {
      return mismatch("the case's object", payload, casePath)
    }
    guard let fields = payload.keyedMembers else { return unreadableKey(casePath) }
    return checkFields(chosen.fields, fields, casePath)
  }

  private func checkInteger(_ type: RouteShape.IntegerType, _ value: JSONNode, _ path: [PathKey])
    -> Failure?
  {
    guard case .number = value else { return mismatch(type.rawValue, value, path) }
    if type.reads(value) { return nil }
    let why: String
    if let number = value.read(Double.self) {
      why = number.rounded() == number ? "does not fit in" : "is not a whole number for"
    } else {
      why = "is not a number JSONDecoder reads as"
    }
    return Failure(path: path, message: "\(value.kindDescription) \(why) \(type.rawValue)")
  }

  private func checkNumber(
    _ value: JSONNode, _ path: [PathKey], as type: String, reads: (JSONNode) -> Bool
  ) -> Failure? {
    guard case .number = value else { return mismatch(type, value, path) }
    if JSONNode.plainInteger(numberText(value)) != nil || reads(value) { return nil }
    return Failure(path: path, message: "\(value.kindDescription) does not fit in \(type)")
  }

  private func numberText(_ value: JSONNode) -> String {
    if case .number(let raw) = value { return raw }
    return ""
  }

  /// The string at `value`, or why it does not read as one.
  private func readString(_ value: JSONNode, as type: String, _ path: [PathKey])
    -> (text: String?, failure: Failure?)
  {
    guard case .string = value else { return (nil, mismatch(type, value, path)) }
    guard let text = value.decodedString else {
      return (nil, Failure(path: path, message: "the string is not valid JSON"))
    }
    return (text, nil)
  }

  private func unreadableKey(_ path: [PathKey]) -> Failure {
    Failure(path: path, message: "a key of the object is not valid JSON")
  }

  private mutating func leaveToApp(_ path: [PathKey], _ reason: String) -> Failure? {
    if undetermined == nil {
      let place = CodingPathDescription.dotted(path)
      undetermined = place.isEmpty ? reason : "at \(place): \(reason)"
    }
    return nil
  }

  private func mismatch(_ expected: String, _ value: JSONNode, _ path: [PathKey]) -> Failure {
    Failure(path: path, message: "expected \(expected), found \(value.kindDescription)")
  }

  private func quoted(_ text: String) -> String {
    JSONValue.string(text).jsonText
  }

  private func list(_ names: [String]) -> String {
    let shown = names.prefix(8).joined(separator: ", ")
    return names.count > 8 ? "\(shown), … (\(names.count) in all)" : shown
  }
}

extension JSONValue {
  /// Whether `JSONDecoder` sees a number.
  var isNumber: Bool {
    switch self {
    case .integer, .unsignedInteger, .double: true
    case .null, .bool, .string, .array, .object: false
    }
  }

  /// "null", "a string", … as decoding errors name what they found.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a bool"
    case .integer, .unsignedInteger, .double: "the number \(self)"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
