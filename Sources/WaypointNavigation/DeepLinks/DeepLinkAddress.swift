import Foundation

/// What a ``DeepLinkTable`` reads from a URL before matching: the decoded path segments (the
/// host first for a custom scheme) and the decoded query items.
struct DeepLinkAddress: Sendable, Equatable {
  var segments: [String]
  var query: [String: String]

  /// Reads `url` under the table's schemes, hosts and limits.
  init(_ url: URL, schemes: [String], hosts: [String], limits: DeepLinkLimits)
    throws(DeepLinkError)
  {
    let absolute = url.absoluteString
    let length = absolute.utf8.count
    guard length <= limits.maxURLBytes else {
      throw DeepLinkError(
        .tooLong, "the URL is \(length) bytes long, over the limit of \(limits.maxURLBytes)")
    }
    guard let components = URLComponents(string: absolute) else {
      throw DeepLinkError(.malformedURL, "the URL cannot be parsed")
    }
    let scheme = DeepLinkPattern.asciiLowercased(components.scheme ?? "")
    guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
      throw DeepLinkError(.unsupportedHost, "the URL carries a user name or password")
    }
    var encoded: [Substring] = []
    if schemes.contains(scheme) {
      // myapp://orders/42: the host is the first segment.
      if let host = components.percentEncodedHost, !host.isEmpty { encoded.append(Substring(host)) }
    } else if scheme == "https", !hosts.isEmpty {
      let host = DeepLinkPattern.asciiLowercased(components.percentEncodedHost ?? "")
      guard hosts.contains(host) else {
        throw DeepLinkError(
          .unsupportedHost, "the host \"\(DeepLinkError.printable(host))\" is not one of the app's")
      }
    } else {
      throw DeepLinkError(
        .unsupportedScheme,
        "the scheme \"\(DeepLinkError.printable(scheme))\" is not one of the app's")
    }
    // Empty segments (`//`, a leading or trailing `/`) make no difference, and are not counted.
    encoded += components.percentEncodedPath.split(separator: "/")
    guard encoded.count <= limits.maxSegments else {
      throw DeepLinkError(
        .tooLong,
        "the URL has \(encoded.count) path segments, over the limit of \(limits.maxSegments)")
    }
    segments = []
    for segment in encoded {
      let text = try Self.decoded(segment, what: "a path segment")
      guard text != ".", text != ".." else {
        throw DeepLinkError(.malformedURL, "the path has a \(text) segment")
      }
      segments.append(text)
    }
    query = [:]
    let items = components.percentEncodedQueryItems ?? []
    guard items.count <= limits.maxQueryItems else {
      throw DeepLinkError(
        .tooLong,
        "the URL has \(items.count) query items, over the limit of \(limits.maxQueryItems)")
    }
    for item in items where !item.name.isEmpty {
      let name = try Self.decoded(Substring(item.name), what: "a query item's name")
      let value = try Self.decoded(Substring(item.value ?? ""), what: "query item \(name)")
      guard query.updateValue(value, forKey: name) == nil else {
        throw DeepLinkError(
          .duplicateParameter,
          "query item \(DeepLinkError.printable(name)) is given more than once",
          parameter: DeepLinkError.printable(name))
      }
    }
  }

  /// `text` percent-decoded; refused when the bytes are not UTF-8 or hold a control character.
  private static func decoded(_ text: Substring, what: String) throws(DeepLinkError) -> String {
    guard let decoded = percentDecoded(text) else {
      throw DeepLinkError(
        .malformedURL,
        "\(what) is not valid percent-encoded UTF-8: \(DeepLinkError.printable(text))")
    }
    if decoded.unicodeScalars.contains(where: {
      $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
    }) {
      throw DeepLinkError(
        .malformedURL,
        "\(what) holds a control character: \(DeepLinkError.printable(decoded))")
    }
    return decoded
  }

  /// `text` with each `%XX` made the byte `XX`; `nil` when a `%` is not followed by two hex digits
  /// or the bytes are not UTF-8. Every scalar is kept: Foundation's `removingPercentEncoding`
  /// drops a leading U+FEFF, which would make a route written with one read back without it.
  static func percentDecoded(_ text: Substring) -> String? {
    let source = Array(text.utf8)
    var valid = true
    let bytes = [UInt8](unsafeUninitializedCapacity: source.count) { bytes, count in
      var read = 0
      while read < source.count {
        var byte = source[read]
        if byte == UInt8(ascii: "%") {
          guard read + 2 < source.count, let high = hexValue(source[read + 1]),
            let low = hexValue(source[read + 2])
          else {
            valid = false
            return
          }
          byte = high << 4 | low
          read += 2
        }
        bytes[count] = byte
        read += 1
        count += 1
      }
    }
    // Decoding repairs what is not UTF-8; a repair changes the bytes.
    let decoded = String(decoding: bytes, as: UTF8.self)
    return valid && Array(decoded.utf8) == bytes ? decoded : nil
  }

  /// The value of an ASCII hex digit.
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }

  /// `text` percent-encoded for a path segment or a query item: everything but RFC 3986's
  /// unreserved characters is encoded.
  static func encoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        result += byte < 16 ? "%0\(hex)" : "%\(hex)"
      }
    }
    return result
  }
}
