/// Valid UTF-8 read on bytes, for the readers that scan documents in place (the strict reader, the
/// canonical document's recognition, the redactor).
package enum UTF8Sequence {
  /// The length of the valid UTF-8 sequence of two to four bytes that starts at `index` of
  /// `bytes`: no overlong form, no surrogate, nothing above U+10FFFF, not cut short by the end.
  /// `nil` for anything else, an ASCII byte included.
  package static func length(in bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
    guard index >= 0, index < bytes.count else { return nil }
    let lead = bytes[index]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return nil
    }
    guard bytes.count - index >= length else { return nil }
    let second = bytes[index + 1]
    guard second >= low, second <= high else { return nil }
    for offset in 2..<max(2, length) {
      let byte = bytes[index + offset]
      guard byte >= 0x80, byte <= 0xBF else { return nil }
    }
    return length
  }
}
