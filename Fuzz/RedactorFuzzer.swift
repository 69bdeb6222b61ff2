// Fuzz target `redactor`: the bytes are a route payload, a snapshot document, and the text of a
// scene id, an app build and a quarantine detail, as `export --redact` meets them. A redacted
// payload is always JSON, keeps the payload's shape, shows none of its strings, and is what its
// oracle (Redactor.payloadByValue, through JSONValue) gives.
import Foundation

/// Redacts the bytes every way `export --redact` does and checks what comes out.
func fuzzRedactor(_ data: Data) {
  let redactor = Redactor(limits: .default)
  let text = String(decoding: data, as: UTF8.self)
  let redacted = redactor.payload(text)
  guard let value = try? JSONValue(parsing: redacted) else {
    fatalError("a redacted payload is not JSON: \(redacted)")
  }
  if let original = try? JSONValue(parsing: text, limits: .default) {
    guard shape(original) == shape(value) else {
      fatalError("redaction changed the payload's shape")
    }
    var keys = Set<String>()
    var strings = Set<String>()
    collect(original, keys: &keys, strings: &strings)
    for string in strings where string.count >= 6 && !keys.contains(where: { $0.contains(string) })
    {
      guard !shows(redacted, string) else { fatalError("a redacted payload shows a value") }
    }
  }
  for redactedText in [redactor.scene(text), redactor.build(text), redactor.text(text)]
  where text.count >= 16 {
    guard !shows(redactedText, text) else { fatalError("redacted text shows the text") }
  }
  if let snapshot = try? SceneSnapshot(decoding: data, limits: .default) {
    let encoded = redactor.snapshot(snapshot).encoded()
    guard (try? SceneSnapshot(decoding: encoded, limits: .default)) != nil else {
      fatalError("a redacted snapshot does not decode")
    }
  }
  // The one redaction of a payload is its oracle's, through JSONValue and JSONEncoder.
  guard redacted == redactor.payloadByValue(text) else {
    fatalError("the payload's redaction differs from its oracle's")
  }
}

/// Whether `text` holds `part`, compared as UTF-8 bytes. (Foundation's `String.contains` on Linux
/// finds `"1\0\0"` in `"…1"`: a NUL ends the searched text there.)
private func shows(_ text: String, _ part: String) -> Bool {
  let haystack = Array(text.utf8)
  let needle = Array(part.utf8)
  guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
  return (0...(haystack.count - needle.count)).contains {
    haystack[$0..<($0 + needle.count)].elementsEqual(needle)
  }
}

/// The value with every scalar but booleans and null replaced by its kind.
private func shape(_ value: JSONValue) -> JSONValue {
  switch value {
  case .null, .bool: value
  case .integer, .unsignedInteger, .double: .integer(0)
  case .string: .string("")
  case .array(let items): .array(items.map(shape))
  case .object(let members): .object(members.mapValues(shape))
  }
}

/// The object keys and the strings of a value.
private func collect(_ value: JSONValue, keys: inout Set<String>, strings: inout Set<String>) {
  switch value {
  case .string(let text): strings.insert(text)
  case .array(let items): for item in items { collect(item, keys: &keys, strings: &strings) }
  case .object(let members):
    for (key, member) in members {
      keys.insert(key)
      collect(member, keys: &keys, strings: &strings)
    }
  default: break
  }
}
