/// Where a JSON text stops being JSON, or a string or a number in it stops being one `JSONDecoder`
/// reads, named for people: the line, the column and the byte offset instead of `JSONDecoder`'s
/// "The given data was not valid JSON."
package struct JSONProblem: Error, Hashable, Sendable, CustomStringConvertible {
  /// The byte offset of the problem in the text as given, from 0.
  package var offset: Int
  /// The line, from 1.
  package var line: Int
  /// The column in Unicode scalars, from 1.
  package var column: Int
  /// What is wrong there: `expected a value, found 'x'`.
  package var message: String

  /// `expected a value, found 'x' at line 1, column 5 (byte 4)`.
  package var description: String {
    "\(message) at line \(line), column \(column) (byte \(offset))"
  }

  /// The problem `message` at `offset` of `bytes`, a text that began with a byte order mark of
  /// `markLength` bytes (left out of `bytes`, counted in the offset).
  package init(_ message: String, at offset: Int, in bytes: [UInt8], markLength: Int = 0) {
    let end = min(max(0, offset), bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<end where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    self.offset = end + markLength
    self.line = line
    self.column = String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count + 1
    self.message = message
  }

  /// What stands at `index` of `bytes`, for messages: `found 'x'`, `found byte 0x1F`,
  /// `found the end of the input`.
  package static func found<Bytes: RandomAccessCollection<UInt8>>(at index: Int, in bytes: Bytes)
    -> String
  where Bytes.Index == Int {
    guard index < bytes.endIndex else { return "found the end of the input" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "found '\(Character(UnicodeScalar(byte)))'" }
    if byte >= 0x80 {
      let scalar = String(decoding: bytes[index..<min(index + 4, bytes.endIndex)], as: UTF8.self)
        .unicodeScalars.first
      if let scalar, scalar != "\u{FFFD}" { return "found '\(scalar)'" }
    }
    return "found byte 0x" + String(byte, radix: 16, uppercase: true)
  }
}
