import Foundation

/// A JSON value as a tree that a route migration edits: the structure checked as `JSONDecoder`
/// scans it, numbers and strings kept as written and judged only where a type reads them.
///
/// Made from a ``JSONStructure`` (the one scan of the text), so that a migration accepts and
/// refuses exactly what the real decode does and keeps the members it does not touch byte for
/// byte; ``jsonText`` writes the tree back as compact text.
package enum JSONNode: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number as written: a `-` or a digit followed by digits, `.`, `+`, `-`, `e` or `E`. Whether it
  /// is a number of some type is decided when it is read.
  case number(String)
  /// A string's text between its quotes, escapes as written.
  case string(raw: String)
  case array([JSONNode])
  /// Members in document order, keys as written.
  case object([Member])

  package struct Member: Hashable, Sendable {
    /// The key as written between its quotes.
    package var rawKey: String
    package var value: JSONNode
    /// The key as `JSONDecoder` reads it; `nil` when it does not read (an invalid escape).
    package var key: String? { JSONNode.decode(rawString: rawKey) }
  }

  /// The payload's structure as `JSONDecoder` scans it, after checking `limits`.
  ///
  /// - Throws: ``SnapshotFormatError/Code/tooLarge``,
  ///   ``SnapshotFormatError/Code/nestingTooDeep`` or ``SnapshotFormatError/Code/malformedJSON``
  ///   for what `JSONDecoder` refuses before any type reads the payload.
  package init(parsing text: String, limits: InputLimits) throws(SnapshotFormatError) {
    let structure = try JSONStructure(
      scanning: text.utf8, byteLimit: limits.maxPayloadBytes, maxDepth: limits.maxNestingDepth)
    self.init(structure, structure.root)
  }

  /// The structure of `bytes` as `JSONDecoder`'s scanner sees it, nested at most `maxDepth` levels
  /// (the node is built by recursion, one call per level), and of any size.
  package static func scanning(_ bytes: [UInt8], maxDepth: Int) throws(SnapshotFormatError)
    -> JSONNode
  {
    let structure = try JSONStructure(scanning: bytes, maxDepth: maxDepth)
    return JSONNode(structure, structure.root)
  }

  /// The node of `value` in `structure`.
  package init(_ structure: JSONStructure, _ value: JSONStructure.Value) {
    switch structure.kind(value) {
    case .null: self = .null
    case .bool: self = .bool(structure.bool(value) ?? false)
    case .number: self = .number(String(structure.text(value)))
    case .string: self = .string(raw: String(structure.text(value).dropFirst().dropLast()))
    case .array: self = .array(structure.elements(of: value).map { JSONNode(structure, $0) })
    case .object:
      self = .object(
        structure.members(of: value).map { key, value in
          Member(
            rawKey: String(structure.text(key).dropFirst().dropLast()),
            value: JSONNode(structure, value))
        })
    }
  }

  /// A value's node: what its compact JSON text scans as.
  package init(_ value: JSONValue) {
    // JSONEncoder's output always scans; a value is as deep as the code or the manifest (read
    // within its own depth limit) that built it.
    self = (try? Self.scanning(Array(value.jsonText.utf8), maxDepth: .max)) ?? .null
  }

  /// A string's text between quotes as `JSONDecoder` reads it.
  package static func decode(rawString raw: String) -> String? {
    if !raw.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 }) { return raw }
    guard let structure = try? JSONStructure(scanning: Array("\"\(raw)\"".utf8), maxDepth: 0)
    else { return nil }
    return try? structure.string(structure.root)
  }

  /// The text of `string` between quotes, escaped as `JSONEncoder` escapes it.
  package static func raw(for string: String) -> String {
    let text = JSONValue.string(string).jsonText
    return String(text.dropFirst().dropLast())
  }

  /// The value as ``JSONValue``, when every number and string in it reads; `nil` otherwise.
  package var value: JSONValue? {
    try? JSONValue(
      parsing: jsonText, limits: InputLimits(maxPayloadBytes: .max, maxNestingDepth: .max))
  }

  /// Compact JSON text with every number, string and key as written, members in order.
  package var jsonText: String {
    var text = ""
    write(into: &text)
    return text
  }

  private func write(into text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let flag): text += flag ? "true" : "false"
    case .number(let raw): text += raw
    case .string(let raw): text += "\"" + raw + "\""
    case .array(let items):
      text += "["
      for (index, item) in items.enumerated() {
        if index > 0 { text += "," }
        item.write(into: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { text += "," }
        text += "\"" + member.rawKey + "\":"
        member.value.write(into: &text)
      }
      text += "}"
    }
  }
}
