import Foundation
import Waypoint
import WaypointSQLite

/// How `--json` output is written: one document on stdout, pretty-printed, keys sorted, dates in
/// ISO 8601.
enum JSONOutput {
  static func encoder(pretty: Bool = true) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty
      ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      : [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// `value` as compact JSON on one line, for output that streams a document piece by piece.
  static func line(_ value: some Encodable) -> String {
    (try? encoder(pretty: false).encode(value)).map { String(decoding: $0, as: UTF8.self) }
      ?? "null"
  }

  /// A JSON string literal.
  static func string(_ text: String) -> String { line(text) }

  /// Writes `value` as the command's one JSON document.
  static func write(_ value: some Encodable, to console: Console) throws(CLIError) {
    do {
      var data = try encoder().encode(value)
      data.append(0x0A)
      console.writeOut(data)
    } catch {
      throw CLIError(exitCode: .ioError, message: "cannot write JSON: \(error)")
    }
  }
}

/// A route in JSON output: its tag, version and JSON text, verbatim.
struct RouteJSON: Encodable {
  var tag: String
  var version: Int
  var json: String

  init(_ record: RouteRecord) {
    tag = record.tag
    version = record.version
    json = record.json
  }
}

/// A quarantine mark in JSON output.
struct QuarantineJSON: Encodable {
  var kind: String
  var detail: String
  var since: Date

  init(_ quarantine: Quarantine) {
    kind = quarantine.kind.rawValue
    detail = quarantine.detail
    since = quarantine.since
  }
}

/// A stored snapshot's metadata in JSON output. Keys whose value is absent are written as `null`.
struct SnapshotInfoJSON: Encodable {
  var info: SnapshotInfo

  private enum CodingKeys: String, CodingKey {
    case id, scene, savedAt, formatVersion, routeSchemaVersion, appBuild, bytes, quarantine
    case unconfirmedRestores
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(info.id, forKey: .id)
    try container.encode(info.scene, forKey: .scene)
    try container.encode(info.savedAt, forKey: .savedAt)
    try container.encode(info.formatVersion, forKey: .formatVersion)
    try container.encode(info.routeSchemaVersion, forKey: .routeSchemaVersion)
    try container.encode(info.appBuild, forKey: .appBuild)
    try container.encode(info.byteCount, forKey: .bytes)
    try container.encode(info.quarantine.map(QuarantineJSON.init), forKey: .quarantine)
    try container.encode(info.unconfirmedRestores, forKey: .unconfirmedRestores)
  }
}
