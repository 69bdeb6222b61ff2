import Foundation
import Waypoint

/// The manifest form of a migration step: an object whose `step` names the kind, with the kind's
/// parameters beside it (specified in `Docs/RouteManifest.md`).
///
/// A custom step is written with its name only. Its code cannot be read back, so reading a custom step
/// as a `RouteMigrationStep` throws; a manifest reads it as ``RouteManifest/Step/custom(name:)``.
extension RouteMigrationStep: Codable {
  package enum Kind: String, Codable {
    case renameTag, renameCase, renameField, removeCase, addField, mapValues, moveCase, custom
  }

  package enum Key: String, CodingKey {
    case step, from, to, `case`, name, field, `default`, table, tag, version
  }

  private struct Mapping: Codable {
    package var from: JSONValue
    package var to: JSONValue
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    switch try container.decode(Kind.self, forKey: .step) {
    case .renameTag:
      self = .renameTag(from: try container.decode(String.self, forKey: .from))
    case .renameCase:
      self = .renameCase(
        from: try container.decode(String.self, forKey: .from),
        to: try container.decode(String.self, forKey: .to))
    case .renameField:
      self = .renameField(
        case: try container.decodeIfPresent(String.self, forKey: .case),
        from: try container.decode(String.self, forKey: .from),
        to: try container.decode(String.self, forKey: .to))
    case .removeCase:
      self = .removeCase(try container.decode(String.self, forKey: .case))
    case .addField:
      self = .addField(
        case: try container.decodeIfPresent(String.self, forKey: .case),
        name: try container.decode(String.self, forKey: .name),
        default: try container.decode(JSONValue.self, forKey: .default))
    case .mapValues:
      var table: [JSONValue: JSONValue] = [:]
      for mapping in try container.decode([Mapping].self, forKey: .table) {
        table[mapping.from] = mapping.to
      }
      self = .mapValues(
        case: try container.decodeIfPresent(String.self, forKey: .case),
        field: try container.decode(String.self, forKey: .field), table: table)
    case .moveCase:
      self = .moveCase(
        try container.decode(String.self, forKey: .case),
        toTag: try container.decode(String.self, forKey: .tag),
        version: try container.decode(Int.self, forKey: .version))
    case .custom:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath,
          debugDescription:
            "a custom step's code is not data; a manifest reads it as RouteManifest.Step.custom"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .renameTag(let from):
      try container.encode(Kind.renameTag, forKey: .step)
      try container.encode(from, forKey: .from)
    case .renameCase(let from, let to):
      try container.encode(Kind.renameCase, forKey: .step)
      try container.encode(from, forKey: .from)
      try container.encode(to, forKey: .to)
    case .renameField(let scope, let from, let to):
      try container.encode(Kind.renameField, forKey: .step)
      try container.encodeIfPresent(scope, forKey: .case)
      try container.encode(from, forKey: .from)
      try container.encode(to, forKey: .to)
    case .removeCase(let name):
      try container.encode(Kind.removeCase, forKey: .step)
      try container.encode(name, forKey: .case)
    case .addField(let scope, let name, let value):
      try container.encode(Kind.addField, forKey: .step)
      try container.encodeIfPresent(scope, forKey: .case)
      try container.encode(name, forKey: .name)
      try container.encode(value, forKey: .default)
    case .mapValues(let scope, let field, let table):
      try container.encode(Kind.mapValues, forKey: .step)
      try container.encodeIfPresent(scope, forKey: .case)
      try container.encode(field, forKey: .field)
      let mappings = table.map { Mapping(from: $0.key, to: $0.value) }.sorted {
        $0.from.jsonText < $1.from.jsonText
      }
      try container.encode(mappings, forKey: .table)
    case .moveCase(let name, let tag, let version):
      try container.encode(Kind.moveCase, forKey: .step)
      try container.encode(name, forKey: .case)
      try container.encode(tag, forKey: .tag)
      try container.encode(version, forKey: .version)
    case .custom(let name, _):
      try container.encode(Kind.custom, forKey: .step)
      try container.encode(name, forKey: .name)
    }
  }
}

extension RouteManifest.Step: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: RouteMigrationStep.Key.self)
    if try container.decode(RouteMigrationStep.Kind.self, forKey: .step) == .custom {
      self = .custom(name: try container.decode(String.self, forKey: .name))
    } else {
      self = .step(try RouteMigrationStep(from: decoder))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .step(let step): try step.encode(to: encoder)
    case .custom(let name):
      var container = encoder.container(keyedBy: RouteMigrationStep.Key.self)
      try container.encode(RouteMigrationStep.Kind.custom, forKey: .step)
      try container.encode(name, forKey: .name)
    }
  }
}

extension RouteManifest.Migration: Codable {
  private enum Key: String, CodingKey { case from, steps }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    self.init(
      from: try container.decode(Int.self, forKey: .from),
      try container.decode([RouteManifest.Step].self, forKey: .steps))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(from, forKey: .from)
    try container.encode(steps, forKey: .steps)
  }
}
