/// The characters that stored text must not bring to a screen or a line reader as they are: the
/// control characters (C0, DEL and C1, U+0085 included), the line and paragraph separators U+2028
/// and U+2029, and the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to
/// U+202E, U+2066 to U+2069), which reorder the text around them. The tool prints them escaped
/// (`\u{1B}`) and writes them in JSON as `\uXXXX`; a deep link's error quotes them escaped. One
/// list for all of them.
package enum ControlCharacters {
  /// Whether `scalar` is written escaped wherever stored text is shown.
  package static func contains(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E,
      0x2066...0x2069:
      true
    default: false
    }
  }
}
