import Foundation

/// A route payload as `JSONDecoder` holds it before a type reads it: the structure checked, numbers
/// and strings kept as written and judged only where the type reads them.
///
/// `JSONDecoder` scans a whole document for its structure first (brackets, braces, commas, colons,
/// literals, where strings and numbers start and end) and converts a number or a string only when a
/// type asks for it. So `{"home":{},"zz":1e400}` decodes as a `Route` that never reads `zz`, and a
/// string with an invalid escape fails only the type that reads it. offline prediction and route
/// migrations work on this form, so that they accept and refuse exactly what the real decode does
/// and keep members they do not touch byte for byte. ``JSONNode/scanning(_:)`` follows the scanner of
/// swift-foundation's `JSONDecoder`; `JSONNodeAgreementTests` checks it against `JSONDecoder` itself.
indirect enum JSONNode: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number as written: a `-` or a digit followed by digits, `.`, `+`, `-`, `e` or `E`. Whether it
  /// is a number of some type is decided when it is read (``JSONNode/read(_:)``).
  case number(String)
  /// A string's text between its quotes, escapes as written. See ``decodedString``.
  case string(raw: String)
  case array([JSONNode])
  /// Members in document order, keys as written.
  case object([Member])

  struct Member: Hashable, Sendable {
    /// The key as written between its quotes.
    var rawKey: String
    var value: JSONNode
    /// The key as `JSONDecoder` reads it; `nil` when it does not read (an invalid escape).
    var key: String? { JSONNode.decode(rawString: rawKey) }
  }

  /// The payload's structure as `JSONDecoder` scans it, after checking `limits`.
  ///
  /// - Throws: ``SnapshotFormatError/Code/tooLarge``,
  ///   ``SnapshotFormatError/Code/nestingTooDeep`` or ``SnapshotFormatError/Code/malformedJSON``
  ///   for what `JSONDecoder` refuses before any type reads the payload.
  init(parsing text: String, limits: InputLimits) throws(SnapshotFormatError) {
    let bytes = Array(text.utf8)
    try limits.check(bytes, byteLimit: limits.maxPayloadBytes)
    self = try Self.scanning(bytes)
  }

  /// The structure of `bytes` as `JSONDecoder`'s scanner sees it, without limits.
  static func scanning(_ bytes: [UInt8]) throws(SnapshotFormatError) -> JSONNode {
    guard let utf8 = JSONNodeScanner.utf8Representation(of: bytes) else {
      throw .malformedJSON(
        "the data is neither UTF-8 nor the UTF-16 or UTF-32 its first bytes announce")
    }
    var scanner = JSONNodeScanner(bytes: utf8)
    do {
      return try scanner.document()
    } catch {
      throw .malformedJSON(error.description)
    }
  }

  /// A value's node: what its compact JSON text scans as.
  init(_ value: JSONValue) {
    // JSONEncoder's output always scans.
    self = (try? Self.scanning(Array(value.jsonText.utf8))) ?? .null
  }

  /// The string as `JSONDecoder` reads it, `nil` when it refuses it (an invalid escape, a lone
  /// surrogate, an unescaped control character).
  var decodedString: String? {
    guard case .string(let raw) = self else { return nil }
    return Self.decode(rawString: raw)
  }

  /// The members' values by key as a keyed container reads them: every key must read, and the
  /// first of duplicate keys wins. `nil` when the node is not an object or a key does not read.
  var keyedMembers: [String: JSONNode]? {
    guard case .object(let members) = self else { return nil }
    var result: [String: JSONNode] = [:]
    for member in members {
      guard let key = member.key else { return nil }
      if result[key] == nil { result[key] = member.value }
    }
    return result
  }

  /// The number or string read as `T` by `JSONDecoder`; `nil` when it refuses it.
  func read<T: Decodable>(_ type: T.Type) -> T? {
    // Inside an array, as in the payload: a lone value would go through JSONDecoder's encoding
    // detection, which reads `"\u{0}a\u{0}"` as UTF-16.
    let text: String
    switch self {
    case .number(let raw): text = "[" + raw + "]"
    case .string(let raw): text = "[\"" + raw + "\"]"
    default: return nil
    }
    return (try? JSONDecoder().decode([T].self, from: Data(text.utf8)))?.first
  }

  /// Whether the number reads as `T` (a fast path for plain integers, `JSONDecoder` otherwise).
  func reads<T: Decodable & FixedWidthInteger>(asInteger type: T.Type) -> Bool {
    guard case .number(let raw) = self else { return false }
    if let plain = Self.plainInteger(raw) { return T(exactly: plain) != nil }
    return read(type) != nil
  }

  /// A number written as a plain integer of at most 18 digits (`-?(0|[1-9][0-9]*)`).
  static func plainInteger(_ raw: String) -> Int64? {
    let digits = raw.utf8.first == UInt8(ascii: "-") ? raw.utf8.dropFirst() : raw.utf8[...]
    guard let first = digits.first, digits.count <= 18,
      first != UInt8(ascii: "0") || digits.count == 1,
      digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return Int64(raw)
  }

  /// A string's text between quotes as `JSONDecoder` reads it.
  static func decode(rawString raw: String) -> String? {
    if !raw.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 }) { return raw }
    return JSONNode.string(raw: raw).read(String.self)
  }

  /// The text of `string` between quotes, escaped as `JSONEncoder` escapes it.
  static func raw(for string: String) -> String {
    let text = JSONValue.string(string).jsonText
    return String(text.dropFirst().dropLast())
  }

  /// The value as ``JSONValue``, when every number and string in it reads; `nil` otherwise.
  var value: JSONValue? {
    try? JSONValue(
      parsing: jsonText, limits: InputLimits(maxPayloadBytes: .max, maxNestingDepth: .max))
  }

  /// Compact JSON text with every number, string and key as written, members in order.
  var jsonText: String {
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

  /// "null", "a string", … as decoding errors name what they found.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a bool"
    case .number(let raw): "the number \(raw.count > 40 ? String(raw.prefix(40)) + "…" : raw)"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
