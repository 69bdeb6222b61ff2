import Foundation
import Testing
import Waypoint
import WaypointNavigation

@Suite("Deep links refuse bad URLs with a reason")
struct DeepLinkHostileTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let url: String
    let code: DeepLinkError.Code
    var testDescription: String { "\(url.prefix(60)) → \(code)" }
  }

  @Test(
    "a bad URL is refused with the code that names the reason",
    arguments: [
      Case(url: "other://orders/1", code: .unsupportedScheme),
      Case(url: "http://example.com/orders/1", code: .unsupportedScheme),
      Case(url: "file:///orders/1", code: .unsupportedScheme),
      Case(url: "https://evil.example/orders/1", code: .unsupportedHost),
      Case(url: "https://example.com.evil.example/orders/1", code: .unsupportedHost),
      Case(url: "https://user:pw@example.com/orders/1", code: .unsupportedHost),
      Case(url: "myapp://nope", code: .unknownPath),
      Case(url: "myapp://", code: .unknownPath),
      Case(url: "myapp://orders", code: .unknownPath),
      Case(url: "myapp://orders/1/2", code: .unknownPath),
      Case(url: "myapp://orders/abc", code: .badParameter),
      Case(url: "myapp://orders/+5", code: .badParameter),
      Case(url: "myapp://orders/%205", code: .badParameter),
      Case(url: "myapp://orders/1.5", code: .badParameter),
      Case(url: "myapp://orders/99999999999999999999", code: .badParameter),
      Case(url: "myapp://orders/9223372036854775808", code: .badParameter),
      Case(url: "myapp://orders/-9223372036854775809", code: .badParameter),
      Case(url: "myapp://orders/1/items/not-a-uuid", code: .badParameter),
      Case(url: "myapp://flags/yes", code: .badParameter),
      Case(url: "myapp://tabs/Orders", code: .badParameter),
      Case(url: "myapp://search?text=a&section=lost", code: .badParameter),
      Case(url: "myapp://search?text=a&page=", code: .badParameter),
      Case(url: "myapp://search?text=", code: .badParameter),
      Case(url: "myapp://search", code: .missingParameter),
      Case(url: "myapp://search?Text=a", code: .missingParameter),
      Case(url: "myapp://compose", code: .missingParameter),
      Case(url: "myapp://search?text=a&text=b", code: .duplicateParameter),
      Case(url: "myapp://orders/42?id=7", code: .duplicateParameter),
      Case(url: "myapp://orders/%00", code: .malformedURL),
      Case(url: "myapp://u/a%0Ab", code: .malformedURL),
      Case(url: "myapp://u/%1B%5B31m", code: .malformedURL),
      Case(url: "myapp://u/%C2%85", code: .malformedURL),
      Case(url: "myapp://u/%FF", code: .malformedURL),
      Case(url: "myapp://u/%C0%AF", code: .malformedURL),
      Case(url: "myapp://u/%ED%A0%80", code: .malformedURL),
      Case(url: "myapp://search?text=%00", code: .malformedURL),
      Case(url: "myapp://search?te%00xt=a", code: .malformedURL),
      Case(url: "myapp://orders/../tabs/home", code: .malformedURL),
      Case(url: "myapp://u/%2E%2E", code: .malformedURL),
      Case(url: "myapp://u/.", code: .malformedURL),
    ])
  func refused(_ item: Case) throws {
    let error = try #require(Shop.error(item.url))
    #expect(error.code == item.code, "\(error)")
    #expect(!error.message.isEmpty)
  }

  @Test("an overflowing integer names the parameter, the text and what was expected")
  func overflow() throws {
    let error = try #require(Shop.error("myapp://orders/99999999999999999999"))
    #expect(error.parameter == "id")
    #expect(error.value == "99999999999999999999")
    #expect(error.expected == "an integer")
    #expect(error.pattern == "/orders/:id")
    #expect(
      error.message
        == "parameter id is \"99999999999999999999\", expected an integer (pattern /orders/:id)")
    #expect(
      try Shop.table().link(for: Shop.url("myapp://orders/9223372036854775807")).routes.last
        as? Shop.Route == .order(.max))
    #expect(
      try Shop.table().link(for: Shop.url("myapp://orders/-9223372036854775808")).routes.last
        as? Shop.Route == .order(.min))
  }

  @Test("text from the URL reaches messages shortened and with control characters escaped")
  func safeMessages() throws {
    let escape = try #require(Shop.error("myapp://u/%1B%5B31m"))
    #expect(!escape.message.unicodeScalars.contains { $0.value < 0x20 })
    #expect(escape.message.contains("\\u{1B}[31m"))
    let long = String(repeating: "x", count: 1000)
    let bad = try #require(Shop.error("myapp://orders/\(long)"))
    #expect(bad.message.count < 200)
    #expect(bad.value?.count == 65)  // 64 characters and an ellipsis
    let unknown = try #require(Shop.error("myapp://\(long)"))
    #expect(unknown.code == .unknownPath && unknown.message.count < 200)
  }

  @Test("a URL over 8 KiB, or with too many segments or query items, is refused before matching")
  func tooLong() throws {
    let prefix = "myapp://search?text="
    let atLimit = prefix + String(repeating: "a", count: 8 * 1024 - prefix.utf8.count)
    #expect(Shop.error(atLimit) == nil)
    let over = try #require(Shop.error(atLimit + "a"))
    #expect(over.code == .tooLong)
    let huge = try #require(Shop.error(prefix + String(repeating: "%00", count: 1_000_000)))
    #expect(huge.code == .tooLong)
    // 32 segments (the custom scheme's host is the first) are read; 33 are not.
    let segments = "myapp://" + Array(repeating: "a", count: 33).joined(separator: "/")
    #expect(Shop.error(segments)?.code == .tooLong)
    let thirtyTwo = "myapp://" + Array(repeating: "a", count: 32).joined(separator: "/")
    #expect(Shop.error(thirtyTwo)?.code == .unknownPath)
    // Empty segments make no difference, and are not counted.
    let slashes = "myapp://orders" + String(repeating: "/", count: 40) + "1/"
    #expect(Shop.error(slashes) == nil)
    #expect(
      Shop.error("myapp:///" + Array(repeating: "a", count: 32).joined(separator: "//") + "/")?.code
        == .unknownPath)
    let items = "myapp://search?text=a" + (1...32).map { "&q\($0)=1" }.joined()
    #expect(Shop.error(items)?.code == .tooLong)
    let limited = DeepLinkTable(
      schemes: ["myapp"], limits: DeepLinkLimits(maxURLBytes: 20, maxSegments: 2, maxQueryItems: 1))
    #expect(Shop.error("myapp://orders/123456", table: limited)?.code == .tooLong)
  }

  @Test("an error of the app's own from a link closure is reported with its cause")
  func appRefusal() throws {
    struct Gone: Error { let id: Int }
    let table = DeepLinkTable(schemes: ["myapp"]).adding("/gone/:id") { p in
      throw Gone(id: try p.value("id"))
    }
    let error = try #require(Shop.error("myapp://gone/3", table: table))
    #expect(error.code == .refusedByApp)
    #expect((error.underlying as? Gone)?.id == 3)
    #expect(error.pattern == "/gone/:id")
    #expect(Shop.error("myapp://gone/x", table: table)?.code == .badParameter)
  }

  @Test(
    "random URLs never crash, and every accepted one reads back through url(for:)",
    arguments: [UInt64(1), 7, 2026])
  func randomURLs(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = Shop.table()
    let templates = [
      "orders/$", "orders/$/", "orders/$/items/$", "u/$", "search?text=$",
      "search?text=$&section=$&page=$",
      "flags/$", "tabs/$", "compose?to=$", "folders/$", "$/$", "orders//$", "$",
    ]
    let pieces = [
      "42", "-1", "007", "true", "0", "home", "orders", "open", "x", "", ".", "..", "%2E", "%00",
      "%FF",
      "%C3%A9", "%2F", "%3F", "%26", "%", "%G1", "+", "\u{E9}", "%F0%9F%8E%88",
      "99999999999999999999",
      UUID().uuidString, "a=b", "&text=2", "#x", "new",
    ]
    let prefixes = [
      "myapp://", "myapp:///", "https://example.com/", "HTTPS://example.COM/", "other://",
    ]
    var checked = 0
    for iteration in 0..<2000 {
      var text = prefixes[random.next(below: prefixes.count)]
      for character in templates[random.next(below: templates.count)] {
        text += character == "$" ? pieces[random.next(below: pieces.count)] : String(character)
      }
      guard let url = URL(string: text) else { continue }
      guard let link = try? table.link(for: url) else { continue }
      // What a URL leads to, written back, leads to the same place.
      guard let top = (link.routes.last ?? link.sheet), let written = table.url(for: top) else {
        continue
      }
      #expect(
        try table.link(for: written) == link,
        "seed \(seed), iteration \(iteration): \(text) → \(written)")
      checked += 1
    }
    // The run is only worth something if many random URLs were accepted.
    #expect(checked > 200, "seed \(seed): only \(checked) URLs accepted")
  }
}

/// SplitMix64: a small seeded generator, so that a failing run can be repeated.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
