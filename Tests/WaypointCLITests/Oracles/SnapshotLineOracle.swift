import Foundation
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// A line of `waypoint import` read through a ``JSONValue``, parsed by `JSONDecoder`, its document
/// written back as JSON text and read again: how `import` read the lines it did not recognise
/// before it read every line with Waypoint's own scanner. The oracle that
/// `SnapshotLine.parse(_:limits:)` is checked against (the document itself is read by
/// `SceneSnapshot(decoding:)`, which its own oracle checks).
enum SnapshotLineOracle {
  static func parse(_ line: Data, limits: InputLimits) throws(SnapshotLine.Problem)
    -> SnapshotLine.Parsed
  {
    typealias Problem = SnapshotLine.Problem
    guard let text = String(data: line, encoding: .utf8) else {
      throw Problem(message: "not UTF-8 text")
    }
    let lineLimits = InputLimits(
      maxDocumentBytes: SnapshotLine.maxLineBytes(limits),
      maxPayloadBytes: SnapshotLine.maxLineBytes(limits), maxNestingDepth: limits.maxNestingDepth)
    let value: JSONValue
    do {
      value = try JSONValue(parsing: text, limits: lineLimits)
    } catch {
      // A string or number JSONValue does not read is a mismatch in its words: not JSON, in ours.
      let limit = error.code == .tooLarge || error.code == .nestingTooDeep
      throw Problem(message: limit ? error.description : "not valid JSON")
    }
    guard case .object(let members) = value else {
      throw Problem(message: "a line must be a JSON object")
    }
    guard case .string(let scene)? = members["scene"] else {
      throw Problem(message: "\"scene\" must be a string")
    }
    if let reason = SceneID.problem(with: scene) {
      throw Problem(message: "invalid scene id: \(reason)")
    }
    guard let document = members["document"], case .object = document else {
      throw Problem(message: "\"document\" must be a snapshot document (a JSON object)")
    }
    let snapshot: SceneSnapshot
    do {
      snapshot = try SceneSnapshot(decoding: Data(document.jsonText.utf8), limits: limits)
    } catch {
      throw Problem(message: "document: \(error)")
    }
    let written = snapshot.encoded()
    guard written.count <= limits.maxDocumentBytes else {
      throw Problem(
        message: "document: as the store writes it, "
          + "\(SnapshotFormatError.tooLarge(byteCount: written.count, limit: limits.maxDocumentBytes))"
      )
    }
    return SnapshotLine.Parsed(
      scene: scene, metadata: snapshot.metadata,
      quarantine: try quarantine(members["quarantine"]), document: written)
  }

  private static func quarantine(_ value: JSONValue?) throws(SnapshotLine.Problem) -> Quarantine? {
    guard let value, value != .null else { return nil }
    guard case .object(let members) = value, case .string(let name)? = members["kind"],
      let kind = Quarantine.Kind(rawValue: name)
    else {
      throw SnapshotLine.Problem(
        message: "\"quarantine\" must be null or an object whose \"kind\" is "
          + "\"unrestorable\" or \"crash-loop\"")
    }
    var detail = ""
    if case .string(let text)? = members["detail"] { detail = text }
    var since = Date(timeIntervalSince1970: 0)
    if let given = members["since"], given != .null {
      guard case .string(let text) = given, let date = Formatting.parseDate(text) else {
        throw SnapshotLine.Problem(message: "\"quarantine.since\" must be an ISO 8601 date")
      }
      since = date
    }
    return Quarantine(kind, detail: detail, since: since)
  }
}
