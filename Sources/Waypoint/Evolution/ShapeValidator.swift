import Foundation

/// Walks a ``JSONValue`` along a ``RouteShape`` the way `JSONDecoder` walks it along a type.
struct ShapeValidator {
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
  private(set) var needsApp: String?

  init(references: @escaping (String) -> RouteShape?) {
    self.references = references
  }

  mutating func check(_ shape: RouteShape, _ value: JSONValue, at path: [PathKey], hops: Int)
    -> Failure?
  {
    guard path.count <= Self.maxDepth else {
      return leaveToApp(path, "nested deeper than \(Self.maxDepth) levels")
    }
    switch shape {
    case .string:
      guard case .string = value else { return mismatch("String", value, path) }
    case .integer(let type):
      return checkInteger(type, value, path)
    case .double, .date:
      guard value.isNumber else { return mismatch(shape == .date ? "Date" : "Double", value, path) }
    case .float:
      return checkFloat(value, path)
    case .bool:
      guard case .bool = value else { return mismatch("Bool", value, path) }
    case .uuid:
      guard case .string(let text) = value else { return mismatch("UUID", value, path) }
      guard UUID(uuidString: text) != nil else {
        return Failure(path: path, message: "\(quoted(text)) is not a UUID")
      }
    case .url:
      guard case .string(let text) = value else { return mismatch("URL", value, path) }
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
      guard case .object(let members) = value else { return mismatch("an object", value, path) }
      for (key, member) in members.sorted(by: { $0.key < $1.key }) {
        if let failure = check(
          valueShape, member, at: path + [PathKey(dictionaryKey: key)], hops: 0)
        {
          return failure
        }
      }
    case .object(let fields):
      guard case .object(let members) = value else { return mismatch("an object", value, path) }
      return checkFields(fields, members, path)
    case .enumeration(let cases):
      return checkEnumeration(cases, value, path)
    case .stringEnum(let values):
      guard case .string(let text) = value else { return mismatch("String", value, path) }
      guard values.contains(text) else {
        return Failure(path: path, message: "\(quoted(text)) is not one of \(list(values))")
      }
    case .integerEnum(let values):
      if case .integer(let number) = value, values.contains(number) { return nil }
      guard value.isNumber else { return mismatch("an integer", value, path) }
      return Failure(
        path: path, message: "\(value) is not one of \(list(values.map(String.init)))")
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
    _ fields: [RouteShape.Field], _ members: [String: JSONValue], _ path: [PathKey]
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
    _ cases: [RouteShape.Case], _ value: JSONValue, _ path: [PathKey]
  ) -> Failure? {
    guard case .object(let members) = value else {
      return mismatch("an object with one case key", value, path)
    }
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
    guard case .object(let payload) = members[chosen.name] ?? .null else {
      return mismatch("the case's object", members[chosen.name] ?? .null, casePath)
    }
    return checkFields(chosen.fields, payload, casePath)
  }

  private func checkInteger(_ type: RouteShape.IntegerType, _ value: JSONValue, _ path: [PathKey])
    -> Failure?
  {
    switch value {
    case .integer(let number) where type.holds(number): return nil
    case .unsignedInteger(let number) where !type.isSigned && type.holds(unsigned: number):
      return nil
    case .unsignedInteger where type.isSigned:
      // JSONValue reads a number as unsigned only when Int64 refused it, which happens to
      // numbers within Int64's range too: `9223372036854775806.0` rounds to 2^63 as a Double,
      // and JSONDecoder checks that Double against the range. No signed type takes it.
      return Failure(path: path, message: "\(value) as written does not fit in \(type.rawValue)")
    case .integer, .unsignedInteger:
      return Failure(path: path, message: "\(value) does not fit in \(type.rawValue)")
    case .double(let number):
      let why = number.rounded() == number ? "does not fit in" : "is not a whole number for"
      return Failure(path: path, message: "\(value) \(why) \(type.rawValue)")
    case .null, .bool, .string, .array, .object:
      return mismatch(type.rawValue, value, path)
    }
  }

  private func checkFloat(_ value: JSONValue, _ path: [PathKey]) -> Failure? {
    switch value {
    case .integer, .unsignedInteger: return nil
    case .double(let number):
      let float = Float(number)
      if float.isFinite && (float != 0 || number == 0) { return nil }
      return Failure(path: path, message: "\(value) does not fit in Float")
    case .null, .bool, .string, .array, .object:
      return mismatch("Float", value, path)
    }
  }

  private mutating func leaveToApp(_ path: [PathKey], _ reason: String) -> Failure? {
    if needsApp == nil {
      let place = CodingPathDescription.dotted(path)
      needsApp = place.isEmpty ? reason : "at \(place): \(reason)"
    }
    return nil
  }

  private func mismatch(_ expected: String, _ value: JSONValue, _ path: [PathKey]) -> Failure {
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
