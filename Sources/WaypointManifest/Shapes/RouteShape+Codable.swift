import Foundation
import Waypoint

/// The manifest form of a shape: an object with a `kind` and the members of that kind, specified in
/// `Docs/RouteShapes.md`.
///
/// ```json
/// {"kind":"object","fields":[{"name":"userId","required":true,"shape":{"kind":"integer","type":"Int"}}]}
/// ```
///
/// Decoding is forward compatible: a `kind` (or integer `type`) that this build does not know reads
/// as ``RouteShape/opaque(_:)``, so that a newer manifest makes an older tool answer
/// ``ShapeMatch/undetermined(_:)`` rather than fail. A known kind with a missing or mistyped member
/// throws `DecodingError`.
extension RouteShape: Codable {
  package enum Kind: String {
    case string, integer, double, float, bool, uuid, date, url, optional, array, dictionary
    case object, enumeration, stringEnum, integerEnum, reference, opaque
  }

  package enum CodingKeys: String, CodingKey {
    case kind, type, wrapped, element, value, fields, cases, values, tag, reason
  }

  /// Reads the manifest form. An unknown `kind` or integer `type` reads as ``opaque(_:)``.
  ///
  /// - Throws: `DecodingError` when the value is not an object, has no `kind`, or a known kind
  ///   lacks one of its members.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .kind)
    guard let kind = Kind(rawValue: name) else {
      self = .opaque("unknown shape kind \"\(name)\"")
      return
    }
    switch kind {
    case .string: self = .string
    case .integer:
      let typeName = try container.decode(String.self, forKey: .type)
      self =
        IntegerType(rawValue: typeName).map { .integer($0) }
        ?? .opaque("unknown integer type \"\(typeName)\"")
    case .double: self = .double
    case .float: self = .float
    case .bool: self = .bool
    case .uuid: self = .uuid
    case .date: self = .date
    case .url: self = .url
    case .optional: self = .optional(try container.decode(RouteShape.self, forKey: .wrapped))
    case .array: self = .array(try container.decode(RouteShape.self, forKey: .element))
    case .dictionary: self = .dictionary(try container.decode(RouteShape.self, forKey: .value))
    case .object: self = .object(try container.decode([Field].self, forKey: .fields))
    case .enumeration: self = .enumeration(try container.decode([Case].self, forKey: .cases))
    case .stringEnum: self = .stringEnum(try container.decode([String].self, forKey: .values))
    case .integerEnum: self = .integerEnum(try container.decode([Int64].self, forKey: .values))
    case .reference: self = .reference(tag: try container.decode(String.self, forKey: .tag))
    case .opaque: self = .opaque(try container.decode(String.self, forKey: .reason))
    }
  }

  /// Writes the manifest form: `kind` and the members of that kind.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind.rawValue, forKey: .kind)
    switch self {
    case .string, .double, .float, .bool, .uuid, .date, .url: break
    case .integer(let type): try container.encode(type.rawValue, forKey: .type)
    case .optional(let wrapped): try container.encode(wrapped, forKey: .wrapped)
    case .array(let element): try container.encode(element, forKey: .element)
    case .dictionary(let value): try container.encode(value, forKey: .value)
    case .object(let fields): try container.encode(fields, forKey: .fields)
    case .enumeration(let cases): try container.encode(cases, forKey: .cases)
    case .stringEnum(let values): try container.encode(values, forKey: .values)
    case .integerEnum(let values): try container.encode(values, forKey: .values)
    case .reference(let tag): try container.encode(tag, forKey: .tag)
    case .opaque(let reason): try container.encode(reason, forKey: .reason)
    }
  }

  package var kind: Kind {
    switch self {
    case .string: .string
    case .integer: .integer
    case .double: .double
    case .float: .float
    case .bool: .bool
    case .uuid: .uuid
    case .date: .date
    case .url: .url
    case .optional: .optional
    case .array: .array
    case .dictionary: .dictionary
    case .object: .object
    case .enumeration: .enumeration
    case .stringEnum: .stringEnum
    case .integerEnum: .integerEnum
    case .reference: .reference
    case .opaque: .opaque
    }
  }
}

/// `{"name":"userId","required":true,"shape":{…}}`. A missing `required` means "required unless the
/// shape is optional".
extension RouteShape.Field: Codable {
  package enum CodingKeys: String, CodingKey {
    case name, required, shape
  }

  /// Reads a field.
  ///
  /// - Throws: `DecodingError` when `name` or `shape` is missing or mistyped.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(String.self, forKey: .name),
      try container.decode(RouteShape.self, forKey: .shape),
      isRequired: try container.decodeIfPresent(Bool.self, forKey: .required))
  }

  /// Writes `name`, `required` and `shape`.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(isRequired, forKey: .required)
    try container.encode(shape, forKey: .shape)
  }
}

/// `{"name":"profile","fields":[…]}`; a missing `fields` means no fields.
extension RouteShape.Case: Codable {
  package enum CodingKeys: String, CodingKey {
    case name, fields
  }

  /// Reads a case.
  ///
  /// - Throws: `DecodingError` when `name` is missing or a field is malformed.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(String.self, forKey: .name),
      try container.decodeIfPresent([RouteShape.Field].self, forKey: .fields) ?? [])
  }

  /// Writes `name` and `fields`.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(fields, forKey: .fields)
  }
}
