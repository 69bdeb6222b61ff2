import Foundation

extension SnapshotFormatError {
  /// Maps a `DecodingError` to the field it concerns, in the words of JSON rather than Swift's
  /// (`expected an object, found an array`). For text that is not JSON, `data` (the text that was
  /// decoded) lets the error name where it stops being JSON (``JSONStructure/firstProblem(in:)``).
  package init(_ error: DecodingError, in data: Data? = nil) {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.isEmpty ? "document" : CodingPathDescription.dotted(context.codingPath)
    }
    switch error {
    case .keyNotFound(let key, let context):
      self = .missingField(CodingPathDescription.dotted(context.codingPath + [key]))
    case .valueNotFound(_, let context):
      self = .missingField(path(context))
    case .typeMismatch(let type, let context):
      self = .invalidField(
        path(context), reason: Self.expected(type, debugDescription: context.debugDescription))
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      if let data, let problem = JSONStructure.firstProblem(in: data) {
        self = .malformedJSON(problem.description)
      } else {
        self = .malformedJSON(Self.underlyingMessage(context))
      }
    case .dataCorrupted(let context):
      self = .invalidField(path(context), reason: context.debugDescription)
    @unknown default:
      self = .malformedJSON(String(describing: error))
    }
  }

  /// `malformedJSON` for `data` that `JSONDecoder` refused, naming where it stops being JSON.
  package static func malformed(_ data: Data, otherwise reason: String = "not valid JSON")
    -> SnapshotFormatError
  {
    .malformedJSON(JSONStructure.firstProblem(in: data)?.description ?? reason)
  }

  /// `expected an object, found an array`: the JSON kind a Swift type decodes from, and what the
  /// decoder found instead when it said so.
  package static func expected(_ type: Any.Type, debugDescription: String) -> String {
    let name = String(describing: type)
    let kind: String
    if name.hasPrefix("Dictionary<") {
      kind = "an object"
    } else if name.hasPrefix("Array<") {
      kind = "an array"
    } else if name == "String" {
      kind = "a string"
    } else if name == "Bool" {
      kind = "true or false"
    } else if ["Int", "UInt", "Double", "Float", "Decimal"].contains(where: name.hasPrefix) {
      kind = "a number"
    } else {
      kind = "another kind of value"
    }
    guard let found = debugDescription.range(of: "found "),
      let instead = debugDescription.range(
        of: " instead", range: found.upperBound..<debugDescription.endIndex)
    else { return "expected \(kind)" }
    // Foundation's words for what it found, in JSON's: a dictionary is an object.
    let what = debugDescription[found.upperBound..<instead.lowerBound]
      .replacingOccurrences(of: "a dictionary", with: "an object")
    return "expected \(kind), found \(what)"
  }

  private static func underlyingMessage(_ context: DecodingError.Context) -> String {
    if let underlying = context.underlyingError {
      return "\(context.debugDescription) (\(underlying))"
    }
    return context.debugDescription
  }
}
