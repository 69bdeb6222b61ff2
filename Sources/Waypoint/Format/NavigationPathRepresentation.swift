import Foundation

/// Reads and writes the exact JSON of SwiftUI's `NavigationPath.CodableRepresentation`, without
/// SwiftUI.
///
/// The representation is a flat JSON array of strings that alternates a qualified type name
/// (`_typeName(T.self, qualified: true)`, such as `MyApp.Route` or `Swift.Int`) and that element's
/// own JSON, **top of the stack first, root last**. Waypoint stacks are root first, so both functions
/// reverse the order. Element JSON is kept verbatim, so a representation written by SwiftUI reads and
/// writes back byte for byte.
public enum NavigationPathRepresentation {
  /// The routes of a `NavigationPath.CodableRepresentation` document, **root first**, each with
  /// version 1 (SwiftUI stores no versions; see ``RouteRegistry/records(fromNavigationPath:limits:)``
  /// to stamp the registered ones).
  ///
  /// - Throws: ``SnapshotFormatError``: ``SnapshotFormatError/Code/tooLarge``,
  ///   ``SnapshotFormatError/Code/nestingTooDeep``, ``SnapshotFormatError/Code/malformedJSON``,
  ///   ``SnapshotFormatError/Code/notAnArray``, ``SnapshotFormatError/Code/elementNotString`` or
  ///   ``SnapshotFormatError/Code/oddElementCount``. Element JSON is not parsed here.
  public static func records(from data: Data, limits: InputLimits = .default)
    throws(SnapshotFormatError) -> [RouteRecord]
  {
    try limits.check(data, byteLimit: limits.maxDocumentBytes)
    let strings: [String]
    do {
      strings = try JSONDecoder().decode([String].self, from: data)
    } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
      throw .notAnArray
    } catch let DecodingError.typeMismatch(_, context) {
      throw .elementNotString(index: context.codingPath.last?.intValue ?? 0)
    } catch let DecodingError.valueNotFound(_, context) {
      throw .elementNotString(index: context.codingPath.last?.intValue ?? 0)
    } catch let error as DecodingError {
      throw SnapshotFormatError(error, in: data)
    } catch {
      throw .malformed(data)
    }
    guard strings.count.isMultiple(of: 2) else { throw .oddElementCount(strings.count) }
    var records: [RouteRecord] = []
    records.reserveCapacity(strings.count / 2)
    var index = strings.count - 2
    while index >= 0 {
      records.append(RouteRecord(tag: strings[index], json: strings[index + 1]))
      index -= 2
    }
    return records
  }

  /// The `NavigationPath.CodableRepresentation` JSON of a stack given **root first**, byte for byte
  /// as `JSONEncoder` writes the representation's array of strings (its default escapes, `/`
  /// included): decodable by `JSONDecoder` into `NavigationPath.CodableRepresentation`. Versions
  /// are not part of the format and are left out.
  public static func data(for records: [RouteRecord]) -> Data {
    data(joining: records.map { Element(typeName: $0.tag, json: $0.json) })
  }

  /// One element of the representation written out: its type name and its JSON as two escaped
  /// strings (`"MyApp.Route","{\"order\":…}"`), kept to be joined by ``data(joining:)`` as often
  /// as the stack around it changes.
  package struct Element: Sendable {
    /// The element's two strings and the comma between them.
    package let bytes: Data

    package init(typeName: String, json: String) {
      var writer = JSONWriter(capacity: 8 + typeName.utf8.count + json.utf8.count * 2)
      writer.quoted(typeName, escapingSlashes: true)
      writer.byte(0x2C)
      writer.quoted(json, escapingSlashes: true)
      bytes = writer.finish()
    }
  }

  /// The representation of a stack whose elements are given **root first**.
  package static func data(joining elements: [Element]) -> Data {
    var writer = JSONWriter(capacity: 2 + elements.reduce(0) { $0 + $1.bytes.count + 1 })
    writer.byte(0x5B)
    for (index, element) in elements.reversed().enumerated() {
      if index > 0 { writer.byte(0x2C) }
      writer.bytes(element.bytes)
    }
    writer.byte(0x5D)
    return writer.finish()
  }
}
