import Foundation
import Testing
import Waypoint

@testable import WaypointCLI

/// `export --redact` reads payloads with Waypoint's own scanner and hashes with a SHA-256 that does
/// not allocate; these tests hold both to their oracles: the `JSONValue` path (`JSONDecoder`, then
/// `JSONEncoder` with sorted keys, `Redactor.payloadByValue`) and the byte-array SHA-256 below.
@Suite("export --redact against its oracles")
struct RedactionDifferentialTests {
  let redactor = Redactor(limits: .default)

  @Test("SHA-256 gives the reference digest for every length around the block boundaries")
  func sha256AgainstReference() {
    var generator = SplitMix64(state: 0x5AA5)
    for length in Array(0...200) + [447, 448, 511, 512, 513, 1000, 4096] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      #expect(SHA256.digest(bytes) == ReferenceSHA256.digest(bytes), "length \(length)")
    }
    #expect(
      SHA256.hex(String(repeating: "a", count: 1000))
        == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }

  @Test("a scene id is redacted to scene- and the first 12 hex digits of the reference digest")
  func sceneAgainstReference() {
    var generator = SplitMix64(state: 0x5CE7E)
    var ids = [
      "", "a", "main", "C9FF57DD-954F-A1DD-C1B4-8B1CC6ACA919", "é e\u{301} 日本 🙂", "\u{0}x",
    ]
    ids.append(String(repeating: "x", count: 41))  // the prefix and the id past one block
    for _ in 0..<200 {
      ids.append(
        String(
          (0..<Int.random(in: 0...90, using: &generator)).map { _ in
            "aZ9-_ é日🙂\u{1}\"\\".randomElement(using: &generator)!
          }))
    }
    for id in ids {
      let expected = "scene-" + ReferenceSHA256.hex("waypoint-redact/scene/" + id).prefix(12)
      #expect(redactor.scene(id) == expected, "\(id)")
    }
  }

  /// Payloads the fast path must take, and must write as the reference does.
  static let typical: [String] = [
    #"{"category":{"name":"Shoes and boots"}}"#,
    #"{"product":{"id":3000000,"variant":"blue-42"}}"#,
    #"{"review":{"page":0,"productId":-17}}"#,
    #"{"settings":{}}"#, #""shop""#, "[]", "{}", "true", "false", "null", "0", "-0", "7",
    "12345678901234567", "-12345678901234567",
    #"{"B":1,"a":2,"_":3,"A":4,"b":[1,[2,[3,{"z":null,"y":true}]]],"10":5,"9":6,"":7}"#,
    #"{"é":"é","e\u0301\u0301":"x"}"#, #"{"日本":"語","🙂":"\ud83d\ude42","ä":"\u00e4"}"#,
    #"{"q\"uote":"a\"b","back\\slash":"\\","slash\/":"\/","ctl\u0001\b\f\n\r\t":"\u001f\u007f"}"#,
    #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","lower":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f"}"#,
    #"{"mixed":"e621E1F8-c36c-495a-93fc-0c247a3e6e5f","near":"E621E1F8-C36C-495A-93FC-0C247A3E6E5G"}"#,
    "  {\n\t\"spaced\" :\r [ 1 , \"two\" ] }  ", #""\u0000nul""#,
  ]

  @Test("the payloads Waypoint writes are redacted to the oracle's text")
  func typicalPayloads() {
    for payload in Self.typical {
      #expect(redactor.payload(payload) == redactor.payloadByValue(payload), "\(payload)")
    }
  }

  @Test("hostile payloads give the oracle's text")
  func hostilePayloads() {
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    let hostile: [String] = [
      "", " ", "not json {", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\":1,\"a\":2}", "{\"a\" 1}",
      "\u{FEFF}{}", "{} x", "01", "1.0", "2.5", "-0.0", "1e2", "1E+2", "1e400",
      "123456789012345678901", "9223372036854775807", "9223372036854775808",
      "18446744073709551616", "-9223372036854775809", #""\ud800""#, #""\udc00x""#, #""a\qb""#,
      "\"raw\ncontrol\"", "\"tab\tinside\"", deep,
      String(repeating: "{\"a\":", count: 33) + "1" + String(repeating: "}", count: 33),
      "[" + String(repeating: "1,", count: 40_000) + "1]", "NaN", "Infinity", "'single'",
      #"{"a":[1,2.5,"x",{"b":1e-7}]}"#, "\"\u{0}\"", "tru", "nul", "[true,false,null]",
      #"{"\u0041":1,"A":2}"#, #"{"é":"é","e\u0301":"x"}"#, "123456789012345678",
      "-123456789012345678", #"{"a":1}{"b":2}"#, "[1 2]", "{\"a\":01}", "\"\u{1}\"",
    ]
    for payload in hostile {
      #expect(redactor.payload(payload) == redactor.payloadByValue(payload), "\(payload)")
    }
    // Payloads read and payloads replaced whole both come up, or this proves little.
    let unreadable = hostile.filter { (try? JSONValue(parsing: $0)) == nil }.count
    #expect(unreadable > 10 && unreadable < hostile.count - 10, "\(unreadable) unreadable")
  }

  @Test("generated payloads give the oracle's text")
  func generatedPayloads() {
    var generator = SplitMix64(state: 0x00C0_FFEE)
    for _ in 0..<1500 {
      let payload = Self.value(depth: 0, using: &generator)
      #expect(redactor.payload(payload) == redactor.payloadByValue(payload), "\(payload)")
    }
  }

  @Test("the hash cache is keyed by bytes: two spellings of é keep their own hashes")
  func cacheKeyedByBytes() {
    let composed = #"{"a":"\u00e9"}"#
    let decomposed = #"{"a":"e\u0301"}"#
    let warm = Redactor(limits: .default)
    let first = warm.payload(composed)
    let second = warm.payload(decomposed)
    #expect(first != second)
    #expect(Redactor(limits: .default).payload(decomposed) == second)
    #expect(warm.payload(composed) == first)
  }

  @Test("the hash cache keeps short values only: a long one is hashed alike, and not kept")
  func cacheKeepsShortValues() {
    let redactor = Redactor(limits: .default)
    let long = String(repeating: "x", count: RedactionCache.maxValueBytes + 1)
    let redacted = redactor.payload(#"{"a":"\#(long)"}"#)
    #expect(redactor.cache.count == 0)
    #expect(Redactor(limits: .default).payload(#"{"a":"\#(long)"}"#) == redacted)
    _ = redactor.payload(#"{"a":"short"}"#)
    #expect(redactor.cache.count == 1)
  }

  /// A random JSON text: objects with keys in varied scripts and cases, arrays, strings with
  /// escapes and non-ASCII text, integers of every size, a few other numbers, whitespace.
  static func value(depth: Int, using generator: inout SplitMix64) -> String {
    let space = [" ", "", "", "\n", "\t"].randomElement(using: &generator)!
    switch Int.random(in: 0..<(depth > 3 ? 6 : 9), using: &generator) {
    case 0: return "null"
    case 1: return Bool.random(using: &generator) ? "true" : "false"
    case 2:
      let digits = Int.random(in: 1...20, using: &generator)
      var text = Bool.random(using: &generator) ? "-" : ""
      text += String(Int.random(in: 1...9, using: &generator))
      for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &generator)) }
      return Int.random(in: 0..<8, using: &generator) == 0 ? "0" : text
    case 3:
      return ["1.5", "-0.25", "3e2", "0.1", "12.0", "1E-3"].randomElement(using: &generator)!
    case 4, 5: return string(using: &generator)
    case 6:
      let items = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        value(depth: depth + 1, using: &generator)
      }
      return "[" + space + items.joined(separator: "," + space) + "]"
    default:
      var keys: [String] = []
      for _ in 0..<Int.random(in: 0...5, using: &generator) {
        let key = string(using: &generator)
        if !keys.contains(key) { keys.append(key) }
      }
      let members = keys.map { key in
        key + space + ":" + value(depth: depth + 1, using: &generator)
      }
      return "{" + members.joined(separator: ",") + space + "}"
    }
  }

  static func string(using generator: inout SplitMix64) -> String {
    let pieces = [
      "a", "B", "z", "Z", "0", "9", "_", "-", " ", "é", "e\u{301}", "日本", "🙂", "Ω", #"\""#, #"\\"#,
      #"\/"#, #"\n"#, #"\t"#, #"\u0000"#, #"\u001f"#, #"\u00e9"#, #"\ud83d\ude42"#, "\u{7F}", "id",
    ]
    if Int.random(in: 0..<10, using: &generator) == 0 {
      let uuid = UUID().uuidString
      return "\"" + (Bool.random(using: &generator) ? uuid.lowercased() : uuid) + "\""
    }
    let count = Int.random(in: 0...6, using: &generator)
    return "\"" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined() + "\""
  }
}

/// The byte-array SHA-256 that `export --redact` used before, kept as the reference for
/// ``SHA256``.
enum ReferenceSHA256 {
  /// The 32-byte digest of `bytes`.
  static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var message = Array(bytes)
    let bitLength = UInt64(message.count) &* 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    var hash = initial
    var words = [UInt32](repeating: 0, count: 64)
    for chunk in stride(from: 0, to: message.count, by: 64) {
      for index in 0..<16 {
        let base = chunk + index * 4
        words[index] =
          UInt32(message[base]) << 24 | UInt32(message[base + 1]) << 16
          | UInt32(message[base + 2]) << 8 | UInt32(message[base + 3])
      }
      for index in 16..<64 {
        let s0 =
          rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ (words[index - 15] >> 3)
        let s1 =
          rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ (words[index - 2] >> 10)
        words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, h) = (
        hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7]
      )
      for index in 0..<64 {
        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
        let choice = (e & f) ^ (~e & g)
        let temp1 = h &+ s1 &+ choice &+ roundConstants[index] &+ words[index]
        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
        let majority = (a & b) ^ (a & c) ^ (b & c)
        let temp2 = s0 &+ majority
        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
      }
      for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { hash[index] &+= value }
    }
    return hash.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - $0 * 8)) } }
  }

  /// The digest in lowercase hexadecimal.
  static func hex(_ text: String) -> String {
    digest(Array(text.utf8)).map { byte in
      let digits = Array("0123456789abcdef")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }.joined()
  }

  private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
  }

  private static let initial: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]
}
