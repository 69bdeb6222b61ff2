import Foundation
import Waypoint

/// Replaces personal data in snapshots by stable hashes, for `export --redact`, so that a store can
/// be shared while the shape of its navigation stays visible.
///
/// In every route payload each value is replaced and each key is kept: object keys (field names,
/// enum case names), array lengths and nesting stay, so a redacted route still shows which case and
/// fields it had. Values keep their JSON type where that is cheap: integers become other integers,
/// numbers other numbers, strings other strings (a UUID another UUID); booleans and `null` carry
/// at most one bit and are kept. Scene ids, app builds and quarantine details are replaced too.
/// Tags, stack names, versions and dates are kept. The same value always gives the same hash, in
/// one export and across exports, so equal values stay visibly equal.
///
/// The hashes are unsalted SHA-256: they hide values from reading, but a value from a small set
/// (a small integer id, a common name) can be found again by hashing candidates.
struct Redactor: Sendable {
  var limits: InputLimits

  func scene(_ id: String) -> String { "scene-" + hash("scene", id) }

  func build(_ build: String) -> String { "build-" + hash("build", build) }

  func text(_ text: String) -> String { "redacted-" + hash("text", text) }

  /// Why a snapshot cannot be read, without any stored value: the error's kind, the field path and
  /// the numbers of sizes, limits and versions are kept; a field's value, a parser's quote of the
  /// input and a decoder's explanation (which may quote the value) are left out.
  func reason(_ error: SnapshotFormatError) -> String {
    switch error.code {
    case .tooLarge, .nestingTooDeep, .notAnArray, .elementNotString, .oddElementCount,
      .missingField, .newerFormat:
      error.description
    case .malformedJSON: "malformed JSON (details left out by --redact)"
    case .invalidField:
      "invalid field \(error.field ?? "?") (its value left out by --redact)"
    // A code added later may quote stored data: only its name is certain to be safe.
    default: "\(error.code) (details left out by --redact)"
    }
  }

  /// The snapshot with every route payload and its app build redacted.
  func snapshot(_ snapshot: SceneSnapshot) -> SceneSnapshot {
    var copy = snapshot.mapSlots { _, slot in
      guard case .route(let record) = slot else { return .keep }
      return .replace(route(record))
    }
    copy.metadata.appBuild = snapshot.metadata.appBuild.map(build)
    return copy
  }

  func route(_ record: RouteRecord) -> RouteRecord {
    var copy = record
    copy.json = payload(record.json)
    return copy
  }

  /// A route's JSON with every value replaced. Text that is not JSON (or over the limits) is
  /// replaced whole, as one string.
  func payload(_ json: String) -> String {
    guard let value = try? JSONValue(parsing: json, limits: limits) else {
      return JSONValue.string("~" + hash("value", json)).jsonText
    }
    return redact(value).jsonText
  }

  func redact(_ value: JSONValue) -> JSONValue {
    switch value {
    case .null, .bool: value
    case .integer(let number): .integer(integer(hash("value", String(number))))
    case .unsignedInteger(let number): .integer(integer(hash("value", String(number))))
    case .double(let number): .double(Double(integer(hash("value", "\(number)")) % 1_000_000) / 100)
    case .string(let text): .string(Self.isUUID(text) ? uuid(text) : "~" + hash("value", text))
    case .array(let items): .array(items.map(redact))
    case .object(let members): .object(members.mapValues(redact))
    }
  }

  /// 12 hexadecimal digits of SHA-256 over the kind and the value.
  private func hash(_ kind: String, _ value: String) -> String {
    String(SHA256.hex("waypoint-redact/\(kind)/\(value)").prefix(12))
  }

  /// A non-negative integer below one billion, from hexadecimal digits.
  private func integer(_ hex: String) -> Int64 {
    Int64((UInt64(hex.prefix(15), radix: 16) ?? 0) % 1_000_000_000)
  }

  /// Another UUID, in the same letter case.
  private func uuid(_ text: String) -> String {
    let digits = Array(SHA256.hex("waypoint-redact/value/\(text.uppercased())"))
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
    let joined = groups.joined(separator: "-")
    return text == text.lowercased() ? joined : joined.uppercased()
  }

  static func isUUID(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count == 36 else { return false }
    for (index, scalar) in scalars.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard scalar == "-" else { return false }
      } else if !scalar.properties.isASCIIHexDigit {
        return false
      }
    }
    return true
  }
}
