import Foundation
import Waypoint
import WaypointSQLite

/// How `--json` output is written: one document on stdout, pretty-printed by ``JSONStream``, its
/// members in the order the command writes them (not sorted), dates as ISO 8601 strings, absent
/// values as `null`, and a final newline.
enum JSONOutput {
  /// Writes `value` as the command's one JSON document.
  static func write(_ value: some JSONWritable, to console: Console) {
    var json = JSONStream(.pretty)
    value.write(to: &json)
    var data = json.take()
    data.append(0x0A)
    console.writeOut(data)
  }
}

/// A route in JSON output: its tag, version and JSON text, verbatim.
struct RouteJSON: JSONWritable {
  var record: RouteRecord

  init(_ record: RouteRecord) { self.record = record }

  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("tag", record.tag)
      json.member("version", record.version)
      json.member("json", record.json)
    }
  }
}

/// A quarantine mark in JSON output.
struct QuarantineJSON: JSONWritable {
  var quarantine: Quarantine

  init(_ quarantine: Quarantine) { self.quarantine = quarantine }

  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("kind", quarantine.kind.rawValue)
      json.member("detail", quarantine.detail)
      json.member("since", quarantine.since)
    }
  }
}

/// A stored snapshot's metadata in JSON output. Keys whose value is absent are written as `null`.
struct SnapshotInfoJSON: JSONWritable {
  var info: SnapshotInfo

  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("id", info.id)
      json.member("scene", info.scene)
      json.member("savedAt", info.savedAt)
      json.member("formatVersion", info.formatVersion)
      json.member("routeSchemaVersion", info.routeSchemaVersion)
      json.member("appBuild", info.appBuild)
      json.member("bytes", info.byteCount)
      json.member("quarantine", info.quarantine.map(QuarantineJSON.init))
      json.member("unconfirmedRestores", info.unconfirmedRestores)
    }
  }
}
