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
      (try? SceneSnapshot(reading: document, limits: .default)) ?? SceneSnapshot(metadata: metadata)
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
    if let parsed = exportedLine(line, limits: limits) { return parsed }
    return try parseAnyOther(line, limits: limits)
  }

  /// Reads one line given by its bytes, as `parse(_:limits:)` does; a line exactly as `export`
  /// writes it is read without a copy of it being made.
  static func parse(_ line: UnsafeRawBufferPointer, limits: InputLimits) throws(Problem) -> Parsed {
    if let parsed = exportedLine(line, limits: limits) { return parsed }
    return try parseAnyOther(Data(line), limits: limits)
  }

  /// Reads a line that `exportedLine(_:limits:)` does not take.
  private static func parseAnyOther(_ line: Data, limits: InputLimits) throws(Problem) -> Parsed {
    // The lines `export` writes are read straight from their bytes; anything unusual the slow way
    // below, which gives the same result and names the problem.
    if let parsed = strictlyParsed(line, limits: limits) { return parsed }
    guard let text = String(data: line, encoding: .utf8) else {
      throw Problem(message: "not UTF-8 text")
    }
    let lineLimits = InputLimits(
      maxDocumentBytes: maxLineBytes(limits), maxPayloadBytes: maxLineBytes(limits),
      maxNestingDepth: limits.maxNestingDepth)
    let value: JSONValue
    do {
      value = try JSONValue(parsing: text, limits: lineLimits)
    } catch {
      if error.code == .malformedJSON {
        // One line of a file: the column says where, the line number is the caller's.
        let problem = JSONStructure.firstProblem(in: line)
        throw Problem(
          message: "not valid JSON"
            + (problem.map { " at column \($0.column) (byte \($0.offset)): \($0.message)" } ?? ""))
      }
      throw Problem(message: error.description)
    }
    guard case .object(let members) = value else {
      throw Problem(message: "a line must be a JSON object")
    }
    guard case .string(let scene)? = members["scene"] else {
      throw Problem(message: "\"scene\" must be a string")
    }
    // The store's rule, checked in the check pass so that the line is named and nothing is created.
    if let reason = SceneID.problem(with: scene) {
      throw Problem(message: "invalid scene id: \(reason)")
    }
    guard let document = members["document"], case .object = document else {
      throw Problem(message: "\"document\" must be a snapshot document (a JSON object)")
    }
    let snapshot: SceneSnapshot
    do {
      snapshot = try SceneSnapshot(decoding: Data(document.jsonText.utf8), limits: limits)
      try snapshot.check()
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
      quarantine: try quarantine(members["quarantine"]), document: written)
  }

  /// The line, when it is exactly as `export` writes a line without a quarantine, its members in
  /// their order and nothing more:
  ///
  /// ```
  /// {"id":DIGITS,"scene":"ID","savedAt":"TEXT","quarantine":null,"document":DOCUMENT}
  /// ```
  ///
  /// with an id of 1 to 17 digits in plain form, a scene id of printable ASCII without `"` and `\`
  /// (1 to ``/WaypointSQLite/SceneID/maxByteCount`` bytes), a save time of printable ASCII without
  /// `"` and `\`, and a document that `CanonicalDocument` recognises. `nil` for anything else, which
  /// ``strictlyParsed(_:limits:)`` reads: for every line this takes it gives the same (tested), only
  /// without reading the line's members one by one.
  static func exportedLine(_ line: Data, limits: InputLimits) -> Parsed? {
    line.withUnsafeBytes { exportedLine($0, limits: limits) }
  }

  /// `exportedLine(_:limits:)` (of a `Data`) of a line given by its bytes.
  static func exportedLine(_ bytes: UnsafeRawBufferPointer, limits: InputLimits) -> Parsed? {
    // Within the line the document nests one level deeper than on its own.
    guard limits.maxNestingDepth >= 5 else { return nil }
    var index = 0
    /// Takes `text` at `index`.
    func literal(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.count - index >= count, let base = bytes.baseAddress,
        memcmp(base + index, text.utf8Start, count) == 0
      else { return false }
      index += count
      return true
    }
    /// Takes a run of printable ASCII other than `"` and `\`, up to a `"`, and the `"`.
    func plainText() -> Range<Int>? {
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
        if byte == UInt8(ascii: "\"") {
          index += 1
          return start..<(index - 1)
        }
        index += 1
      }
      return nil
    }
    guard literal(#"{"id":"#) else { return nil }
    let digits = index
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    guard index > digits, index - digits <= 17, index - digits == 1 || bytes[digits] != 0x30,
      literal(#","scene":""#), let scene = plainText(),
      !scene.isEmpty, scene.count <= SceneID.maxByteCount,
      literal(#","savedAt":""#), plainText() != nil,
      literal(#","quarantine":null,"document":"#),
      let document = CanonicalDocument(bytes, at: index, limits: limits),
      document.end == bytes.count - 1, bytes[document.end] == UInt8(ascii: "}")
    else { return nil }
    return Parsed(
      scene: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[scene]), as: UTF8.self),
      metadata: SnapshotMetadata(
        routeSchemaVersion: document.routeSchemaVersion,
        appBuild: document.appBuild.map { CanonicalDocument.string(bytes, $0) },
        savedAt: document.savedAt),
      quarantine: nil,
      document: Data(UnsafeRawBufferPointer(rebasing: bytes[index..<document.end])))
  }

  /// The line, when it and its document are in the strict subset of JSON that `StrictJSONReader`
  /// reads, and valid; `nil` for anything else, which `parse(_:limits:)` then reads the slow way.
  static func strictlyParsed(_ line: Data, limits: InputLimits) -> Parsed? {
    typealias Unsure = StrictJSONReader.Unsure
    return line.withUnsafeBytes { bytes -> Parsed? in
      var reader = StrictJSONReader(bytes, maxDepth: limits.maxNestingDepth)
      var scene: String?
      var snapshot: SceneSnapshot?
      // A document as the store writes it, taken as it is.
      var canonical: (metadata: SnapshotMetadata, document: Data)?
      var quarantine: Quarantine?
      do throws(Unsure) {
        try reader.object { reader, key throws(Unsure) in
          switch key {
          case "scene":
            scene = try reader.string()
          case "document":
            // Read in place. The slow way reads the document as JSONValue writes it back: the
            // same snapshot when the document holds no key the format does not name.
            reader.skipSpace()
            let start = reader.index
            // Within the line the document nests one level deeper than on its own.
            if limits.maxNestingDepth >= 5,
              let document = CanonicalDocument(bytes, at: start, limits: limits)
            {
              reader.advance(to: document.end)
              canonical = (
                SnapshotMetadata(
                  routeSchemaVersion: document.routeSchemaVersion,
                  appBuild: document.appBuild.map { CanonicalDocument.string(bytes, $0) },
                  savedAt: document.savedAt),
                Data(UnsafeRawBufferPointer(rebasing: bytes[start..<document.end]))
              )
              snapshot = nil
              return
            }
            canonical = nil
            let read = try SceneSnapshot.strictlyRead(from: &reader, unknownKeys: false)
            guard reader.index - start <= limits.maxDocumentBytes else { throw Unsure() }
            snapshot = read
          case "quarantine":
            quarantine = try strictQuarantine(&reader)
          default:
            try reader.skipValue()
          }
        }
        reader.skipSpace()
        guard reader.atEnd else { return nil }
      } catch {
        return nil
      }
      guard let scene, SceneID.problem(with: scene) == nil else { return nil }
      if let canonical {
        return Parsed(
          scene: scene, metadata: canonical.metadata, quarantine: quarantine,
          document: canonical.document)
      }
      guard let snapshot else { return nil }
      let written = snapshot.encoded()
      guard written.count <= limits.maxDocumentBytes else { return nil }
      return Parsed(
        scene: scene, metadata: snapshot.metadata, quarantine: quarantine, document: written)
    }
  }

  /// `null`, or a mark whose kind is known, whose detail is a string or absent and whose `since`
  /// is a date or absent; anything else is unsure.
  private static func strictQuarantine(_ reader: inout StrictJSONReader)
    throws(StrictJSONReader.Unsure) -> Quarantine?
  {
    typealias Unsure = StrictJSONReader.Unsure
    guard !reader.takeNull() else { return nil }
    var kind: Quarantine.Kind?
    var detail = ""
    var since: Date?
    try reader.object { reader, key throws(Unsure) in
      switch key {
      case "kind":
        guard let known = Quarantine.Kind(rawValue: try reader.string()) else { throw Unsure() }
        kind = known
      case "detail":
        detail = try reader.string()
      case "since":
        if reader.takeNull() { return }
        guard let date = Formatting.parseDate(try reader.string()) else { throw Unsure() }
        since = date
      default:
        try reader.skipValue()
      }
    }
    guard let kind else { throw Unsure() }
    return Quarantine(kind, detail: detail, since: since ?? Date())
  }

  private static func quarantine(_ value: JSONValue?) throws(Problem) -> Quarantine? {
    guard let value, value != .null else { return nil }
    guard case .object(let members) = value, case .string(let name)? = members["kind"],
      let kind = Quarantine.Kind(rawValue: name)
    else {
      throw Problem(
        message: "\"quarantine\" must be null or an object whose \"kind\" is "
          + "\"unrestorable\" or \"crash-loop\"")
    }
    var detail = ""
    if case .string(let text)? = members["detail"] { detail = text }
    var since = Date()
    if let given = members["since"], given != .null {
      guard case .string(let text) = given, let date = Formatting.parseDate(text) else {
        throw Problem(message: "\"quarantine.since\" must be an ISO 8601 date")
      }
      since = date
    }
    return Quarantine(kind, detail: detail, since: since)
  }
}
