/// A parsed URL pattern: `/orders/:id/items/:item`, segments that are literals or `:name`
/// parameters.
struct DeepLinkPattern: Sendable {
  enum Segment: Sendable, Hashable {
    /// Matched without regard to ASCII case; `text` is as declared, `key` lowercased.
    case literal(text: String, key: String)
    case parameter(String)
  }

  /// The pattern as declared.
  let source: String
  let segments: [Segment]

  /// The characters a literal segment may hold: RFC 3986's unreserved ones, so that a literal is
  /// written in a URL as it is declared.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// `text` with ASCII letters lowercased and nothing else changed (so that no other character,
  /// such as the Kelvin sign, can stand for a letter of a literal).
  static func asciiLowercased(_ text: some StringProtocol) -> String {
    String(
      decoding: text.utf8.map {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0
      }, as: UTF8.self)
  }

  /// Parses `source`, or says why it cannot be a pattern.
  init(_ source: String) throws(DeepLinkError) {
    func refuse(_ why: String) -> DeepLinkError {
      DeepLinkError(
        .invalidPattern, "invalid pattern \"\(DeepLinkError.printable(source))\": \(why)",
        pattern: source)
    }
    self.source = source
    var text = Substring(source)
    if text.hasPrefix("/") { text = text.dropFirst() }
    // A trailing slash is dropped, not the second of "//" (an empty segment).
    if text.hasSuffix("/"), text.count > 1 { text = text.dropLast() }
    guard !text.isEmpty else {
      segments = []
      return
    }
    var segments: [Segment] = []
    var names: Set<String> = []
    for part in text.split(separator: "/", omittingEmptySubsequences: false) {
      if part.isEmpty { throw refuse("empty segment (//)") }
      if part.hasPrefix(":") {
        let name = String(part.dropFirst())
        guard !name.isEmpty, name.utf8.allSatisfy(Self.isUnreserved) else {
          throw refuse("parameter name \"\(name)\" must be letters, digits, - . _ or ~")
        }
        guard names.insert(name).inserted else { throw refuse("parameter \(name) given twice") }
        segments.append(.parameter(name))
      } else {
        guard part.utf8.allSatisfy(Self.isUnreserved) else {
          throw refuse("segment \"\(part)\" must be letters, digits, - . _ ~ or a :parameter")
        }
        guard part != ".", part != ".." else { throw refuse("segment \(part) is not allowed") }
        segments.append(.literal(text: String(part), key: Self.asciiLowercased(part)))
      }
    }
    self.segments = segments
  }

  /// The parameter names, in order.
  var parameterNames: [String] {
    segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
  }

  /// Patterns with the same shape match the same paths: the later one could never be chosen.
  var shape: [Segment] {
    segments.map {
      switch $0 {
      case .literal(_, let key): .literal(text: key, key: key)
      case .parameter: .parameter("")
      }
    }
  }

  /// The path parameters when `path` (decoded segments, no empty ones) matches, else `nil`.
  func match(_ path: [String]) -> [String: String]? {
    guard path.count == segments.count else { return nil }
    var parameters: [String: String] = [:]
    for (segment, text) in zip(segments, path) {
      switch segment {
      case .literal(_, let key): if Self.asciiLowercased(text) != key { return nil }
      case .parameter(let name): parameters[name] = text
      }
    }
    return parameters
  }

  /// Whether this pattern is preferred over `other` when both match a path: the one with a
  /// literal at the first position where one has a literal and the other a parameter.
  func isMoreSpecific(than other: DeepLinkPattern) -> Bool {
    for (mine, theirs) in zip(segments, other.segments) {
      switch (mine, theirs) {
      case (.literal, .parameter): return true
      case (.parameter, .literal): return false
      default: continue
      }
    }
    return false
  }
}
