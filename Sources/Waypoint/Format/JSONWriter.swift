/// Writes compact JSON bytes by hand, for the few fixed shapes Waypoint writes on every save.
///
/// Strings are escaped as `JSONEncoder` does with `.withoutEscapingSlashes`: `"` and `\` escaped,
/// `\b \f \n \r \t` by name, other control characters as `\u00XX`, everything else as UTF-8. The
/// writer places the commas: call ``key(_:)`` before each member of an object; values of an array
/// follow each other.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []
  /// Whether the container being written has no member yet, innermost last.
  private var empty: [Bool] = []

  init(capacity: Int = 1024) {
    bytes.reserveCapacity(capacity)
    empty.reserveCapacity(8)
  }

  mutating func beginObject() { open(0x7B) }
  mutating func endObject() { close(0x7D) }
  mutating func beginArray() { open(0x5B) }
  mutating func endArray() { close(0x5D) }

  /// A member's key (with the comma before it when needed); its value follows.
  mutating func key(_ key: String) {
    string(key)
    bytes.append(0x3A)
    // The value that follows must not get a comma of its own.
    if !empty.isEmpty { empty[empty.count - 1] = true }
  }

  mutating func integer(_ value: Int) {
    separate()
    bytes.append(contentsOf: String(value).utf8)
  }

  mutating func string(_ value: String) {
    separate()
    bytes.append(0x22)
    var value = value
    value.withUTF8 { utf8 in
      // Most text needs no escape: copy runs of plain bytes at once.
      var start = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        escape(byte)
        start = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }
    bytes.append(0x22)
  }

  private mutating func escape(_ byte: UInt8) {
    switch byte {
    case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
    case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
    case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
    case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
    case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
    case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
    case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
    default:
      let hex: [UInt8] = Array("0123456789abcdef".utf8)
      bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
    }
  }

  private mutating func open(_ bracket: UInt8) {
    separate()
    bytes.append(bracket)
    empty.append(true)
  }

  private mutating func close(_ bracket: UInt8) {
    bytes.append(bracket)
    empty.removeLast()
  }

  /// A comma before a value or key, unless it is the first in its container or follows a key.
  private mutating func separate() {
    guard let last = empty.last else { return }
    if last {
      empty[empty.count - 1] = false
    } else {
      bytes.append(0x2C)
    }
  }
}
