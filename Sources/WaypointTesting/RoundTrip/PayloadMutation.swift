import Waypoint

/// A change to a stored route of the kind a later build (or a damaged file) brings: a renamed tag,
/// a newer route version, a missing, renamed or retyped field, an unknown case or value.
struct PayloadMutation: Sendable {
  /// What changed, for failure messages: `field id removed`.
  var name: String
  /// The changed record.
  var record: RouteRecord

  /// Every mutation of `record`, in a fixed order.
  static func all(of record: RouteRecord) -> [PayloadMutation] {
    var mutations = [
      PayloadMutation(
        name: "tag renamed",
        record: RouteRecord(tag: record.tag + "Gone", json: record.json, version: record.version)),
      PayloadMutation(
        name: "newer route version",
        record: RouteRecord(tag: record.tag, json: record.json, version: record.version &+ 1)),
      PayloadMutation(
        name: "payload not JSON",
        record: RouteRecord(tag: record.tag, json: "{", version: record.version)),
    ]
    guard let payload = try? JSONValue(parsing: record.json) else { return mutations }
    func with(_ name: String, _ value: JSONValue) {
      mutations.append(
        PayloadMutation(
          name: name,
          record: RouteRecord(tag: record.tag, json: value.jsonText, version: record.version)))
    }
    switch payload {
    case .object(let members):
      for key in members.keys.sorted() {
        var removed = members
        removed[key] = nil
        with("key \(key) removed", .object(removed))
        var renamed = removed
        renamed[key + "Renamed"] = members[key]
        with("key \(key) renamed", .object(renamed))
        guard case .object(let fields)? = members[key] else {
          var retyped = members
          retyped[key] = retype(members[key] ?? .null)
          with("key \(key) retyped", .object(retyped))
          continue
        }
        for field in fields.keys.sorted() {
          var changed = fields
          changed[field] = nil
          var outer = members
          outer[key] = .object(changed)
          with("field \(key).\(field) removed", .object(outer))
          changed[field] = retype(fields[field] ?? .null)
          outer[key] = .object(changed)
          with("field \(key).\(field) retyped", .object(outer))
        }
      }
    case .string(let text):
      with("unknown value", .string(text + "Gone"))
      with("retyped", retype(payload))
    default:
      with("retyped", retype(payload))
    }
    return mutations
  }

  /// A value of another JSON type.
  private static func retype(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string: .integer(0)
    case .integer, .unsignedInteger, .double: .string("0")
    case .bool: .string("true")
    case .null: .integer(0)
    case .array: .object([:])
    case .object: .array([])
    }
  }
}
