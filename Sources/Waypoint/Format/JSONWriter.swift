import Foundation

/// Writes compact JSON bytes by hand, for the few fixed shapes Waypoint writes on every save.
///
/// Strings are escaped as `JSONEncoder` does with `.withoutEscapingSlashes`: `"` and `\` escaped,
/// `\b \f \n \r \t` by name, other control characters as `\u00XX`, everything else as UTF-8.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func integer(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  mutating func string(_ value: String) {
    bytes.append(0x22)
    for byte in value.utf8 {
      switch byte {
      case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
      case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
      case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
      case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
      case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
      case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
      case 0x00..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [
          0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
        ])
      default: bytes.append(byte)
      }
    }
    bytes.append(0x22)
  }

  /// Writes `{` then each present member as `"key":value`, separated by commas, then `}`. Members
  /// must be given in the order they should appear (sorted, for the snapshot format).
  mutating func object(_ members: [(key: StaticString, write: ((inout JSONWriter) -> Void)?)]) {
    bytes.append(0x7B)
    var first = true
    for member in members {
      guard let write = member.write else { continue }
      if !first { bytes.append(0x2C) }
      first = false
      bytes.append(0x22)
      raw(member.key)
      bytes.append(contentsOf: [0x22, 0x3A])
      write(&self)
    }
    bytes.append(0x7D)
  }
}
