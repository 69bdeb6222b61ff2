import Foundation
import Testing
import Waypoint
import WaypointNavigation

@Suite("Deep link round trip")
struct DeepLinkRoundTripTests {
  typealias Route = Shop.Route

  /// Text of every kind: ASCII with the URL's own delimiters, accents, emoji, right-to-left,
  /// combining marks, and now and then a control character or a dot segment (which no URL may
  /// carry).
  static func text(_ random: inout SeededRandom) -> String {
    let alphabet: [String] = [
      "a", "Z", "0", " ", "/", "?", "#", "&", "=", "+", "%", "%20", ".", "-", "_", "~", "é", "ß",
      "🎈",
      "👩‍👩‍👧", "ש", "\u{301}", "\u{202E}", "\u{FEFF}", "'", "\"", "\\", ":", ";", "@", "[", "]",
    ]
    switch random.next(below: 20) {
    case 0: return ""
    case 1: return "."
    case 2: return ".."
    case 3: return "a\u{0}b"
    case 4: return "x\u{1B}"
    default:
      return (0..<1 + random.next(below: 12)).map { _ in
        alphabet[random.next(below: alphabet.count)]
      }.joined()
    }
  }

  static func route(_ random: inout SeededRandom) -> any RestorableRoute {
    let integers = [0, 1, -1, .max, .min, 42, Int(truncatingIfNeeded: random.next())]
    let integer = integers[random.next(below: integers.count)]
    switch random.next(below: 7) {
    case 0: return Route.order(integer)
    case 1: return Route.newOrder
    case 2: return Route.item(order: integer, item: UUID())
    case 3:
      return Route.search(
        text: text(&random),
        section: [nil, .open, .shipped][random.next(below: 3)],
        page: random.next(below: 2) == 0 ? nil : integer)
    case 4: return Route.profile(name: text(&random))
    case 5: return Route.flag(random.next(below: 2) == 0)
    default: return Shop.Compose(to: text(&random))
    }
  }

  /// Whether a URL may carry `text` as a parameter: not empty, no control character, and for a
  /// path segment not `.` or `..`.
  static func writable(_ text: String, inPath: Bool) -> Bool {
    !text.isEmpty && (!inPath || (text != "." && text != ".."))
      && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
  }

  /// Whether url(for:) must give a URL for `route`.
  static func writable(_ route: any RestorableRoute) -> Bool {
    switch route {
    case Route.search(let text, _, _): writable(text, inPath: false)
    case Route.profile(let name): writable(name, inPath: true)
    case let compose as Shop.Compose: writable(compose.to, inPath: false)
    default: true
    }
  }

  @Test(
    "url(for:) round-trips through state(for:) for generated routes, on both URL forms",
    arguments: [UInt64(0x5EED), 42, 2026], [true, false])
  func roundTrip(seed: UInt64, universal: Bool) throws {
    var random = SeededRandom(seed: seed)
    let table = universal ? Shop.table() : Shop.table(hosts: [])
    var written = 0
    for iteration in 0..<1000 {
      let route = Self.route(&random)
      let context = "seed \(seed), iteration \(iteration), route \(route)"
      guard let url = table.url(for: route) else {
        #expect(!Self.writable(route), "no URL for a writable route: \(context)")
        continue
      }
      #expect(Self.writable(route), "a URL for an unwritable route: \(context)")
      written += 1
      let state = try table.state(for: url, from: NavigationState(), rule: .replace)
      let top = state.sheet ?? state.stacks.values.first(where: { !$0.isEmpty })?.last
      #expect(top.map { AnyHashable($0) } == AnyHashable(route), "\(context), url \(url)")
      #expect(
        url.absoluteString.hasPrefix(universal ? "https://example.com/" : "myapp://"), "\(context)")
    }
    #expect(written > 700, "seed \(seed): only \(written) routes written")
  }

  @Test("a byte order mark is text like any other: written, read back, never dropped")
  func byteOrderMark() throws {
    let table = Shop.table()
    for name in ["\u{FEFF}bob", "\u{FEFF}", "b\u{FEFF}b\u{FEFF}"] {
      let route = Route.profile(name: name)
      let url = try #require(table.url(for: route), "no URL for \(name.unicodeScalars.count)")
      let state = try table.state(for: url, from: NavigationState(), rule: .replace)
      let top = state.stacks.values.first(where: { !$0.isEmpty })?.last
      #expect(top.map { AnyHashable($0) } == AnyHashable(route), "url \(url)")
    }
    // A link naming a path with a byte order mark in its first segment matches no pattern.
    #expect(throws: DeepLinkError.self) {
      _ = try table.link(for: URL(string: "https://example.com/%EF%BB%BFsearch?text=a")!)
    }
  }

  @Test("a route whose URL would be over the limit gets none")
  func overLimit() {
    let long = Route.search(text: String(repeating: "é", count: 2000), section: nil, page: nil)
    #expect(Shop.table().url(for: long) == nil)
    let fits = Route.search(text: String(repeating: "é", count: 1000), section: nil, page: nil)
    #expect(Shop.table().url(for: fits) != nil)
  }
}
