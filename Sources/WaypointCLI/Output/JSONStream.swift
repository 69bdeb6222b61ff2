import Foundation
import Waypoint

/// Writes JSON text piece by piece, in the order the caller writes members and elements: the one
/// writer behind every `--json` document and every line `export` writes.
///
/// The stream places commas, colons and (when ``Layout/pretty``) line breaks and indentation; the
/// caller opens and closes containers and writes ``key(_:)`` before each member's value. A caller
/// that streams a long document hands the bytes written so far to its output with ``take()`` and
/// goes on, so that memory stays constant.
///
/// Strings are always valid JSON whatever they hold: `"` and `\` escaped, `\b \f \n \r \t` by
/// name, the other ``/Waypoint/ControlCharacters`` (C0, DEL and C1 controls, U+2028 and U+2029,
/// line ends to JavaScript and to some line readers, and the bidirectional formatting characters:
/// stored text cannot reorder a terminal's line) as `\uXXXX`, everything else as UTF-8. A JSON
/// reader gets the same string back. A Swift `String` is valid Unicode; callers decide what stored
/// bytes that are not UTF-8 become before they are written.
struct JSONStream {
  /// How the text is laid out.
  enum Layout {
    /// No whitespace at all, except the line breaks the caller asks for (``lineBreak()``).
    case compact
    /// Each member and element on its own line, indented by two spaces a level; `"key": value`;
    /// empty containers as `{}` and `[]`.
    case pretty
  }

  let layout: Layout
  /// The bytes written and not yet taken.
  private(set) var bytes: [UInt8] = []
  /// Whether each open container has no member yet, innermost last.
  private var empty: [Bool] = []
  /// Whether a key was just written, so that its value follows without a separator.
  private var afterKey = false

  init(_ layout: Layout = .pretty, capacity: Int = 1024) {
    self.layout = layout
    bytes.reserveCapacity(capacity)
  }

  /// Hands over the bytes written so far and starts afresh, keeping the open containers.
  mutating func take() -> Data {
    defer { bytes.removeAll(keepingCapacity: true) }
    return Data(bytes)
  }

  /// Appends the bytes written so far to `output` and starts afresh, as ``take()`` does.
  mutating func take(appendingTo output: inout [UInt8]) {
    output.append(contentsOf: bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  // MARK: Containers

  mutating func beginObject() { open(UInt8(ascii: "{")) }
  mutating func endObject() { close(UInt8(ascii: "}")) }
  mutating func beginArray() { open(UInt8(ascii: "[")) }
  mutating func endArray() { close(UInt8(ascii: "]")) }

  /// An object whose members `body` writes.
  mutating func object(_ body: (inout JSONStream) -> Void) {
    beginObject()
    body(&self)
    endObject()
  }

  /// A member's key; its value is what is written next.
  mutating func key(_ name: String) {
    separate()
    quoted(name)
    bytes.append(UInt8(ascii: ":"))
    if layout == .pretty { bytes.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// A member: its key and its value (`null` for `nil`).
  mutating func member(_ name: String, _ value: some JSONWritable) {
    key(name)
    value.write(to: &self)
  }

  /// A line break between two tokens, in compact layout: `validate` and `repair` write one scene a
  /// line. Nothing in pretty layout, which breaks lines itself.
  mutating func lineBreak() {
    if layout == .compact { bytes.append(0x0A) }
  }

  // MARK: Values

  mutating func string(_ value: String) {
    separate()
    quoted(value)
  }

  mutating func integer(_ value: some BinaryInteger) {
    separate()
    bytes.append(contentsOf: String(value).utf8)
  }

  mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  mutating func null() {
    separate()
    bytes.append(contentsOf: "null".utf8)
  }

  /// A value that is JSON text already, written as it is: the caller vouches that it is one
  /// compact JSON value (a stored document that was parsed and found to be an object).
  mutating func raw(_ json: some Sequence<UInt8>) {
    separate()
    bytes.append(contentsOf: json)
  }

  // MARK: Layout

  private mutating func open(_ bracket: UInt8) {
    separate()
    bytes.append(bracket)
    empty.append(true)
  }

  private mutating func close(_ bracket: UInt8) {
    let wasEmpty = empty.popLast() ?? true
    if layout == .pretty, !wasEmpty { newline() }
    bytes.append(bracket)
  }

  /// What comes before a value or a key: nothing after a key; in a container, a comma unless it is
  /// the first, and in pretty layout a new line.
  private mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard let first = empty.last else { return }
    if first {
      empty[empty.count - 1] = false
    } else {
      bytes.append(UInt8(ascii: ","))
    }
    if layout == .pretty { newline() }
  }

  private mutating func newline() {
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * empty.count))
  }

  /// `text` as a JSON string literal.
  private mutating func quoted(_ text: String) {
    Self.appendQuoted(text, to: &bytes)
  }

  /// `text` as a JSON string literal, as the stream writes it, appended to `bytes`: for a writer
  /// of one fixed shape that writes its other tokens itself (an export line).
  static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      // Most text needs no escape: runs of plain bytes are copied at once.
      var start = 0
      var index = 0
      while index < utf8.count {
        guard let (unit, length) = escaped(utf8, at: index) else {
          index += 1
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        escape(unit, to: &bytes)
        index += length
        start = index
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The character at `index` of valid UTF-8 `utf8` when it is written escaped
  /// (`"`, `\\`, or one of ``/Waypoint/ControlCharacters``), with the length of its encoding;
  /// `nil` for one written as it is. Only the lead bytes 0xC2, 0xD8 and 0xE2 begin a character
  /// of that list above U+007F, so others are not decoded.
  private static func escaped(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (
    UInt16, Int
  )? {
    let byte = utf8[index]
    let scalar: UInt32
    let length: Int
    switch byte {
    case 0x22, 0x5C: return (UInt16(byte), 1)
    case ..<0x80:
      scalar = UInt32(byte)
      length = 1
    case 0xC2, 0xD8:
      guard index + 1 < utf8.count else { return nil }
      scalar = UInt32(byte & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
      length = 2
    case 0xE2:
      guard index + 2 < utf8.count else { return nil }
      scalar =
        0x2000 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
      length = 3
    default: return nil
    }
    guard let character = Unicode.Scalar(scalar), ControlCharacters.contains(character) else {
      return nil
    }
    return (UInt16(scalar), length)
  }

  private static func escape(_ unit: UInt16, to bytes: inout [UInt8]) {
    switch unit {
    case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
    case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
    case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
    case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
    case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    default:
      let hex = Array("0123456789abcdef".utf8)
      bytes.append(contentsOf: [0x5C, UInt8(ascii: "u")])
      for shift: UInt16 in [12, 8, 4, 0] { bytes.append(hex[Int((unit >> shift) & 0xF)]) }
    }
  }
}
