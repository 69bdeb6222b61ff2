import Foundation
import Waypoint
import WaypointSQLite

/// One line of the JSON Lines that `waypoint export` writes and `waypoint import` reads:
///
/// ```
/// {"id":2,"scene":"iphone-window","savedAt":"2026-11-29T12:00:00Z","quarantine":null,"document":{…}}
/// ```
///
/// `document` is the snapshot document itself (a JSON object, see Docs/SnapshotFormat.md);
/// `quarantine` is `null` or `{"detail":…,"kind":"unrestorable"|"crash-loop","since":…}`.
enum SnapshotLine {
  /// A line read back.
  struct Parsed {
    var scene: String
    /// The snapshot's metadata (what the store copies into its columns).
    var metadata: SnapshotMetadata
    var quarantine: Quarantine?
    /// The snapshot's document as the store writes it (`snapshot.encoded()`).
    var document: Data

    /// The snapshot, read back from ``document``.
    var snapshot: SceneSnapshot {
      (try? SceneSnapshot(decoding: document, limits: .default))
        ?? SceneSnapshot(metadata: metadata)
    }
  }

  /// Why a line cannot be imported.
  struct Problem: Error, Hashable {
    var message: String
  }

  /// The line for one snapshot, ending with a newline. `document` must be one compact JSON object;
  /// it is written as it is. A line without a quarantine (nearly every one) is put together from
  /// its fixed parts, its id's digits and its scene and date quoted as ``JSONStream`` quotes them;
  /// the rest is written by ``JSONStream``, byte for byte the same (tested).
  static func encode(
    id: Int64, scene: String, savedAt: Date, quarantine: Quarantine?, document: Data
  ) -> Data {
    var bytes: [UInt8] = []
    append(
      id: id, scene: scene, savedAt: savedAt, quarantine: quarantine, document: document,
      to: &bytes)
    return Data(bytes)
  }

  /// Appends the line ``encode(id:scene:savedAt:quarantine:document:)`` gives to `bytes`: a
  /// writer of many lines reuses one buffer.
  static func append(
    id: Int64, scene: String, savedAt: Date, quarantine: Quarantine?, document: Data,
    to bytes: inout [UInt8]
  ) {
    document.withUnsafeBytes { document in
      append(
        id: id, scene: scene, savedAt: savedAt, quarantine: quarantine, document: document,
        to: &bytes)
    }
  }

  /// Appends the line of ``append(id:scene:savedAt:quarantine:document:to:)`` for a document given
  /// by its bytes (a redacted document, not copied into a `Data` first).
  static func append(
    id: Int64, scene: String, savedAt: Date, quarantine: Quarantine?,
    document: UnsafeRawBufferPointer, to bytes: inout [UInt8]
  ) {
    guard quarantine == nil else {
      bytes.append(
        contentsOf: encodeWithStream(
          id: id, scene: scene, savedAt: savedAt, quarantine: quarantine, document: Data(document)))
      return
    }
    // Grown by doubling: `bytes` may be a long buffer of many lines, which `reserveCapacity` of
    // just this line would reallocate (and copy) line after line.
    let needed = bytes.count + document.count + 2 * scene.utf8.count + 96
    if bytes.capacity < needed { bytes.reserveCapacity(max(needed, 2 * bytes.capacity)) }
    bytes.append(contentsOf: #"{"id":"#.utf8)
    bytes.append(contentsOf: String(id).utf8)
    bytes.append(contentsOf: #","scene":"#.utf8)
    JSONStream.appendQuoted(scene, to: &bytes)
    bytes.append(contentsOf: #","savedAt":"#.utf8)
    JSONStream.appendQuoted(date(savedAt), to: &bytes)
    bytes.append(contentsOf: #","quarantine":null,"document":"#.utf8)
    bytes.appendBytes(document)
    bytes.append(contentsOf: "}\n".utf8)
  }

  /// The line ``encode(id:scene:savedAt:quarantine:document:)`` writes, written by
  /// ``JSONStream`` token by token.
  static func encodeWithStream(
    id: Int64, scene: String, savedAt: Date, quarantine: Quarantine?, document: Data
  ) -> Data {
    var json = JSONStream(.compact, capacity: document.count + 256)
    json.object { json in
      json.member("id", id)
      json.member("scene", scene)
      json.key("savedAt")
      json.string(date(savedAt))
      json.key("quarantine")
      if let quarantine {
        json.object { json in
          json.member("detail", quarantine.detail)
          json.member("kind", quarantine.kind.rawValue)
          json.member("since", quarantine.since)
        }
      } else {
        json.null()
      }
      json.key("document")
      json.raw(document)
    }
    json.lineBreak()
    return json.take()
  }

  /// `savedAt` as ``Formatting/date(_:)`` writes it: a whole second from 1970 to 9999 (every save
  /// time a store holds but hostile ones) by hand, as the snapshot format writes it, anything else
  /// by Foundation.
  static func date(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970
    guard interval >= 0, interval <= 253_402_300_799, interval.rounded(.down) == interval else {
      return Formatting.date(date)
    }
    let (year, month, day, hour, minute, second) = ISO8601Seconds.components(date)
    return String(unsafeUninitializedCapacity: 20) { text in
      func digits(_ value: Int64, _ width: Int, at offset: Int) {
        var value = value
        for place in stride(from: offset + width - 1, through: offset, by: -1) {
          text[place] = UInt8(truncatingIfNeeded: value % 10) + 0x30
          value /= 10
        }
      }
      digits(year, 4, at: 0)
      text[4] = UInt8(ascii: "-")
      digits(month, 2, at: 5)
      text[7] = UInt8(ascii: "-")
      digits(day, 2, at: 8)
      text[10] = UInt8(ascii: "T")
      digits(hour, 2, at: 11)
      text[13] = UInt8(ascii: ":")
      digits(minute, 2, at: 14)
      text[16] = UInt8(ascii: ":")
      digits(second, 2, at: 17)
      text[19] = UInt8(ascii: "Z")
      return 20
    }
  }

  /// The longest line `import` reads: a document at the limit and room for the rest.
  static func maxLineBytes(_ limits: InputLimits) -> Int { limits.maxDocumentBytes + (64 << 10) }

  /// Reads one line. `id` and `savedAt` are for people: the snapshot gets a new id, and its save
  /// time is the document's.
  static func parse(_ line: Data, limits: InputLimits) throws(Problem) -> Parsed {
    try parse(bytes: line, limits: limits)
  }

  /// Reads one line given by its bytes, as `parse(_:limits:)` does, without a copy of the line
  /// being made first.
  static func parse(_ line: UnsafeRawBufferPointer, limits: InputLimits) throws(Problem) -> Parsed {
    try parse(bytes: line, limits: limits)
  }

  /// Reads a line: JSON, every string and number of which reads (``/Waypoint/JSONStructure``, the
  /// one scanner), an object whose `document` is read as the store reads documents
  /// (``/Waypoint/SceneSnapshot/init(document:in:)``) and kept as the store writes it.
  private static func parse(bytes line: some Collection<UInt8>, limits: InputLimits)
    throws(Problem) -> Parsed
  {
    let json: JSONStructure
    do {
      json = try JSONStructure(
        scanning: line, byteLimit: maxLineBytes(limits), maxDepth: limits.maxNestingDepth)
    } catch {
      guard error.code == .malformedJSON else { throw Problem(message: error.description) }
      throw notJSON(JSONStructure.firstProblem(in: line))
    }
    // A line is JSON through and through, the members nobody reads included.
    if let problem = json.firstUnreadableValue() { throw notJSON(problem) }
    guard json.kind(json.root) == .object else {
      throw Problem(message: "a line must be a JSON object")
    }
    let members = Self.members(of: json.root, in: json)
    guard let sceneValue = members["scene"], json.kind(sceneValue) == .string,
      let scene = try? json.string(sceneValue)
    else { throw Problem(message: "\"scene\" must be a string") }
    // The store's rule, checked in the check pass so that the line is named and nothing is created.
    if let reason = SceneID.problem(with: scene) {
      throw Problem(message: "invalid scene id: \(reason)")
    }
    guard let document = members["document"], json.kind(document) == .object else {
      throw Problem(message: "\"document\" must be a snapshot document (a JSON object)")
    }
    let snapshot: SceneSnapshot
    do throws(SnapshotFormatError) {
      let size = json.range(document).count
      guard size <= limits.maxDocumentBytes else {
        throw .tooLarge(byteCount: size, limit: limits.maxDocumentBytes)
      }
      snapshot = try SceneSnapshot(document: document, in: json)
    } catch {
      throw Problem(message: "document: \(error)")
    }
    // The store keeps the document as it writes it (defaults filled in), which can be longer than
    // the line's: checked here, so that the check pass names the line and nothing is created.
    let written = snapshot.encoded()
    guard written.count <= limits.maxDocumentBytes else {
      throw Problem(
        message: "document: as the store writes it, "
          + "\(SnapshotFormatError.tooLarge(byteCount: written.count, limit: limits.maxDocumentBytes))"
      )
    }
    return Parsed(
      scene: scene, metadata: snapshot.metadata,
      quarantine: try quarantine(members["quarantine"], in: json), document: written)
  }

  /// The problem of a line that is not JSON: the column says where, the line number is the
  /// caller's.
  private static func notJSON(_ problem: JSONProblem?) -> Problem {
    Problem(
      message: "not valid JSON"
        + (problem.map { " at column \($0.column) (byte \($0.offset)): \($0.message)" } ?? ""))
  }

  /// The members of an object by key, as `JSONDecoder` reads them: the first of duplicate keys
  /// (every key reads: the line was checked).
  private static func members(of object: JSONStructure.Value, in json: JSONStructure) -> [String:
    JSONStructure.Value]
  {
    var members: [String: JSONStructure.Value] = [:]
    for (key, value) in json.members(of: object) {
      guard let name = try? json.string(key), members[name] == nil else { continue }
      members[name] = value
    }
    return members
  }

  /// `null`, or a mark whose kind is known, whose detail is a string (empty otherwise) and whose
  /// `since` is a date (now when it is `null` or absent).
  private static func quarantine(_ value: JSONStructure.Value?, in json: JSONStructure)
    throws(Problem) -> Quarantine?
  {
    guard let value, json.kind(value) != .null else { return nil }
    let members = json.kind(value) == .object ? Self.members(of: value, in: json) : [:]
    guard let kindValue = members["kind"], let name = try? json.string(kindValue),
      let kind = Quarantine.Kind(rawValue: name)
    else {
      throw Problem(
        message: "\"quarantine\" must be null or an object whose \"kind\" is "
          + "\"unrestorable\" or \"crash-loop\"")
    }
    let detail = members["detail"].flatMap { try? json.string($0) } ?? ""
    var since = Date()
    if let given = members["since"], json.kind(given) != .null {
      guard let text = try? json.string(given), let date = Formatting.parseDate(text) else {
        throw Problem(message: "\"quarantine.since\" must be an ISO 8601 date")
      }
      since = date
    }
    return Quarantine(kind, detail: detail, since: since)
  }
}
