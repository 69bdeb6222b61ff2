/// One change to the stored JSON of a route tag's values, applied on the way from one version of the
/// tag to the next.
///
/// Declarative steps are data: a manifest carries them and the `waypoint` CLI applies them without
/// the app. A ``custom(_:_:)`` step is Swift code and always has its code: only the app runs it. A
/// manifest describes it by name (`RouteManifest.Step.custom(name:)` in WaypointManifest), and the fate a prediction
/// gives a route that reaches one is `RouteFate.undetermined(_:)`; a step without code cannot be
/// registered.
///
/// `case: nil` in a field step means the payload itself is the object (a struct route); a case name
/// means the object under that enum case (`{"profile":{"userId":1}}` has the field `userId` in the
/// case `profile`).
public enum RouteMigrationStep: Sendable {
  /// Values stored under `from` (an old type name) belong to this tag. Registers `from` as an alias.
  case renameTag(from: String)
  /// The enum case stored as `from` is now called `to`.
  case renameCase(from: String, to: String)
  /// The field `from` is now called `to`.
  case renameField(case: String?, from: String, to: String)
  /// The case was removed: its routes are dropped with ``DropReason/removedCase(_:version:)``.
  case removeCase(String)
  /// A new field, with the value stored routes get. An existing value is kept. A default holding
  /// `nan` or an infinity, which JSON cannot write, is a registration mistake.
  case addField(case: String?, name: String, default: JSONValue)
  /// The field's values are replaced through a table (for example old integer ids to new UUID
  /// strings). A value the table does not list fails the step for that route; a missing field is
  /// left alone. An entry holding `nan` or an infinity is a registration mistake.
  case mapValues(case: String?, field: String, table: [JSONValue: JSONValue])
  /// Routes of the case now belong to another tag, stored as they are (`{"case":{...}}`) at
  /// `version` of that tag; that tag's own migrations continue from there.
  case moveCase(String, toTag: String, version: Int)
  /// Swift code for what data cannot express. It gets the payload and returns the new one; throwing,
  /// or returning a number JSON cannot write (`nan`, infinite), drops the route with
  /// ``DropReason/migrationFailed(tag:version:step:message:)``. `name` appears in
  /// reports and manifests. A payload holding a number or string that does not read as
  /// ``JSONValue`` (`1e400`, an invalid escape) is dropped with ``DropReason/invalidPayload(_:)``
  /// before the code runs.
  case custom(_ name: String, _ transform: @Sendable (JSONValue) throws -> JSONValue)

  /// Whether a tool without the app can apply the step.
  public var isDeclarative: Bool {
    if case .custom = self { return false }
    return true
  }
}

extension RouteMigrationStep: CustomStringConvertible {
  /// A short form for reports: `renameCase(order → purchase)`.
  public var description: String {
    func scope(_ name: String?) -> String { name.map { "\($0)." } ?? "" }
    switch self {
    case .renameTag(let from): return "renameTag(\(from))"
    case .renameCase(let from, let to): return "renameCase(\(from) → \(to))"
    case .renameField(let name, let from, let to):
      return "renameField(\(scope(name))\(from) → \(to))"
    case .removeCase(let name): return "removeCase(\(name))"
    case .addField(let name, let field, let value):
      return "addField(\(scope(name))\(field) = \(value))"
    case .mapValues(let name, let field, let table):
      return "mapValues(\(scope(name))\(field), \(table.count) values)"
    case .moveCase(let name, let tag, let version): return "moveCase(\(name) → \(tag)@\(version))"
    case .custom(let name, _): return "custom(\(name))"
    }
  }
}

/// The steps that take a tag's stored values from version `from` to `from + 1`.
///
/// A tag at version 3 lists up to two migrations, from 1 and from 2; a version with no migration
/// changed nothing in the stored JSON.
public struct RouteMigration: Sendable {
  /// The version the steps start from.
  public var from: Int
  /// The steps, applied in order.
  public var steps: [RouteMigrationStep]

  /// Steps from version `from` to `from + 1`.
  public init(from: Int, _ steps: [RouteMigrationStep]) {
    self.from = from
    self.steps = steps
  }
}

extension RouteMigrationStep {
  /// The first number the step holds that JSON cannot write (an `addField` default or a `mapValues`
  /// key or value that is `nan` or infinite); `nil` when it holds none. Such a step could not be
  /// applied as written nor carried by a manifest, so a registry refuses it.
  package var nonFiniteNumber: Double? {
    switch self {
    case .addField(_, _, let value): return value.nonFiniteNumber
    case .mapValues(_, _, let table):
      for (key, value) in table {
        if let number = key.nonFiniteNumber ?? value.nonFiniteNumber { return number }
      }
      return nil
    case .renameTag, .renameCase, .renameField, .removeCase, .moveCase, .custom: return nil
    }
  }

  /// The step with the keys of a `mapValues` table as a stored payload reads them: a stored `1`
  /// is `.integer(1)`, so a key the app wrote `.double(1)` or `.unsignedInteger(1)` means that one
  /// (as it does once written to a manifest and read back). When two keys mean the same stored
  /// value, one written as a payload reads it wins, else the one whose value's JSON sorts first:
  /// the same one at every launch. Made once, when the step is registered.
  package var canonical: RouteMigrationStep {
    guard case .mapValues(let scope, let field, let table) = self else { return self }
    var keys: [JSONValue: JSONValue] = [:]
    for (key, value) in table {
      let canonical = key.canonical
      if canonical == key {
        keys[key] = value
        continue
      }
      // A key written as read wins; of others, the one whose value's JSON sorts first.
      guard table[canonical] == nil else { continue }
      if let other = keys[canonical], other.jsonText <= value.jsonText { continue }
      keys[canonical] = value
    }
    return .mapValues(case: scope, field: field, table: keys)
  }
}
