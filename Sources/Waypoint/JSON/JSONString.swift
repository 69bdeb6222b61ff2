/// Reads the contents of a JSON string (between its quotes) exactly as swift-foundation's
/// `JSONDecoder` reads a string: the escapes `\" \\ \/ \b \f \n \r \t` and `\uXXXX` (four
/// hexadecimal digits; a high surrogate must be followed by an escaped low one), no control
/// character below U+0020 unescaped, and valid UTF-8 between the escapes. Anything else is refused
/// with its place, where `JSONDecoder` refuses the whole text.
///
/// `JSONNodeAgreementTests` checks it against `JSONDecoder` on generated and hostile strings.
package enum JSONString {
  /// Why a string does not read, and where: `offset` from the start of its contents.
  package struct Failure: Error {
    package enum Reason {
      case invalidUTF8
      case controlCharacter(UInt8)
      /// A backslash before anything but an escape.
      case invalidEscape
      /// A `\u` whose four bytes are not all hexadecimal digits.
      case hexadecimalDigits
      /// A `\u` escape of half a surrogate pair, without its other half.
      case loneSurrogate(UInt16)
    }

    package var offset: Int
    package var reason: Reason

    /// The message for people, the contents standing at `base` of `bytes`.
    package func message(in bytes: UnsafeBufferPointer<UInt8>, base: Int) -> String {
      switch reason {
      case .invalidUTF8:
        "invalid UTF-8 in a string, \(JSONProblem.found(at: base + offset, in: bytes))"
      case .controlCharacter(let byte):
        "control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) in a string"
      case .invalidEscape:
        "invalid escape in a string, \(JSONProblem.found(at: base + offset + 1, in: bytes))"
      case .hexadecimalDigits: "invalid escape: \\u needs four hexadecimal digits"
      case .loneSurrogate(let unit):
        "invalid escape: \\u\(String(unit, radix: 16, uppercase: true)) is half of a surrogate pair"
      }
    }
  }

  /// The string `contents` reads as, escapes and all; `ascii` when the contents are all ASCII
  /// (nothing to check of their UTF-8). The structure was scanned: a backslash is followed by a
  /// byte, and `\u` by four.
  package static func unescape(_ contents: UnsafeBufferPointer<UInt8>, ascii: Bool) throws(Failure)
    -> String
  {
    var failure: Failure?
    let text = String(unsafeUninitializedCapacity: max(1, contents.count)) { output in
      do throws(Failure) {
        return try unescape(contents, ascii: ascii, into: output)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure { throw failure }
    return text
  }

  /// Why `contents` do not read as a string, as ``unescape(_:ascii:)`` would refuse them; `nil`
  /// when they read. Nothing is made of them.
  package static func check(_ contents: UnsafeBufferPointer<UInt8>, ascii: Bool) -> Failure? {
    do throws(Failure) {
      _ = try unescape(contents, ascii: ascii, into: nil)
      return nil
    } catch {
      return error
    }
  }

  /// Writes what `contents` reads as into `output` (as large as `contents`: an escape is never
  /// shorter than what it stands for), or only checks it without `output`, and returns its length.
  private static func unescape(
    _ contents: UnsafeBufferPointer<UInt8>, ascii: Bool,
    into output: UnsafeMutableBufferPointer<UInt8>?
  ) throws(Failure) -> Int {
    var written = 0
    func append(_ byte: UInt8) {
      output?[written] = byte
      written += 1
    }
    /// Copies `contents[start..<end]`, valid UTF-8 (checked as JSONDecoder checks it: each run
    /// between escapes on its own).
    func copy(_ start: Int, _ end: Int) throws(Failure) {
      let run = UnsafeBufferPointer(rebasing: contents[start..<end])
      if !ascii, let bad = firstInvalidUTF8(in: run) {
        throw Failure(offset: start + bad, reason: .invalidUTF8)
      }
      if let source = run.baseAddress, let target = output?.baseAddress, !run.isEmpty {
        (target + written).update(from: source, count: run.count)
      }
      written += run.count
    }
    var index = 0
    var runStart = 0
    var escaped = false
    while index < contents.count {
      let byte = contents[index]
      if byte < 0x20 {
        // JSONDecoder checks the text before its first escape before it meets the control
        // character; after an escape, it refuses the character at once.
        if !escaped { try copy(runStart, index) }
        throw Failure(offset: index, reason: .controlCharacter(byte))
      }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      try copy(runStart, index)
      escaped = true
      let backslash = index
      index += 1
      switch contents[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): append(contents[index])
      case UInt8(ascii: "b"): append(0x08)
      case UInt8(ascii: "f"): append(0x0C)
      case UInt8(ascii: "n"): append(0x0A)
      case UInt8(ascii: "r"): append(0x0D)
      case UInt8(ascii: "t"): append(0x09)
      case UInt8(ascii: "u"):
        guard let unit = hexadecimal(contents, at: index + 1) else {
          throw Failure(offset: backslash, reason: .hexadecimalDigits)
        }
        index += 4
        var scalar = UInt32(unit)
        if UTF16.isLeadSurrogate(unit) {
          guard index + 2 < contents.count, contents[index + 1] == UInt8(ascii: "\\"),
            contents[index + 2] == UInt8(ascii: "u")
          else { throw Failure(offset: backslash, reason: .loneSurrogate(unit)) }
          guard let trail = hexadecimal(contents, at: index + 3) else {
            throw Failure(offset: index + 1, reason: .hexadecimalDigits)
          }
          guard UTF16.isTrailSurrogate(trail) else {
            throw Failure(offset: backslash, reason: .loneSurrogate(unit))
          }
          scalar = 0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(trail) - 0xDC00)
          index += 6
        } else if UTF16.isTrailSurrogate(unit) {
          throw Failure(offset: backslash, reason: .loneSurrogate(unit))
        }
        // The scalar's UTF-8: one to four bytes.
        switch scalar {
        case ..<0x80: append(UInt8(scalar))
        case ..<0x800:
          append(UInt8(0xC0 | scalar >> 6))
          append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
          append(UInt8(0xE0 | scalar >> 12))
          append(UInt8(0x80 | scalar >> 6 & 0x3F))
          append(UInt8(0x80 | scalar & 0x3F))
        default:
          append(UInt8(0xF0 | scalar >> 18))
          append(UInt8(0x80 | scalar >> 12 & 0x3F))
          append(UInt8(0x80 | scalar >> 6 & 0x3F))
          append(UInt8(0x80 | scalar & 0x3F))
        }
      default:
        throw Failure(offset: backslash, reason: .invalidEscape)
      }
      index += 1
      runStart = index
    }
    try copy(runStart, contents.count)
    return written
  }

  /// The four hexadecimal digits at `index` as a UTF-16 code unit; `nil` when they are not.
  private static func hexadecimal(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
    guard bytes.count - index >= 4 else { return nil }
    var value: UInt16 = 0
    for byte in bytes[index..<(index + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  /// The offset of the first byte of `bytes` that does not begin or continue valid UTF-8 (an
  /// overlong form, a surrogate, a scalar above U+10FFFF, a sequence cut short); `nil` when they
  /// are all valid.
  package static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
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
      default: return index
      }
      guard bytes.count - index >= length else { return index }
      let second = bytes[index + 1]
      guard second >= low, second <= high else { return index }
      for offset in 2..<max(2, length) {
        let byte = bytes[index + offset]
        guard byte >= 0x80, byte <= 0xBF else { return index }
      }
      index += length
    }
    return nil
  }
}
