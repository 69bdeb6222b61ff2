import Foundation
import Testing

@testable import Waypoint
@testable import WaypointManifest

/// What `JSONDecoder` says about a payload: whether it decodes, and where it failed.
struct DecoderOutcome: CustomStringConvertible {
  var decodes: Bool
  /// The dotted coding path of the error (the key included for a missing key).
  var codingPath: String = ""
  /// `false` for number conversion errors, which `JSONDecoder` reports without a coding path.
  var pathIsReliable = true
  var message = ""

  var description: String {
    decodes ? "decodes" : "fails at \"\(codingPath)\": \(message)"
  }
}

/// Decodes `text` as `T` with a plain `JSONDecoder`.
func decoderOutcome<T: Decodable>(_ type: T.Type, _ text: String) -> DecoderOutcome {
  do {
    _ = try JSONDecoder().decode(type, from: Data(text.utf8))
    return DecoderOutcome(decodes: true)
  } catch let error as DecodingError {
    switch error {
    case .keyNotFound(let key, let context):
      return DecoderOutcome(
        decodes: false, codingPath: dotted(context.codingPath + [key]),
        message: context.debugDescription)
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return DecoderOutcome(
        decodes: false, codingPath: dotted(context.codingPath), message: context.debugDescription)
    case .dataCorrupted(let context):
      let numberError =
        context.codingPath.isEmpty && context.debugDescription.contains("valid JSON")
      return DecoderOutcome(
        decodes: false, codingPath: dotted(context.codingPath), pathIsReliable: !numberError,
        message: context.debugDescription)
    @unknown default:
      return DecoderOutcome(decodes: false, pathIsReliable: false, message: "\(error)")
    }
  } catch {
    return DecoderOutcome(decodes: false, pathIsReliable: false, message: "\(error)")
  }
}

/// The dotted form of restore reports: `profile.userId`, `items[2]`.
func dotted(_ path: [any CodingKey]) -> String { CodingPathDescription.dotted(path) }

/// Checks that `shape` judges `text` exactly as `JSONDecoder` does for `T`, and that an invalid
/// verdict names the coding path `JSONDecoder` names (or, for number conversion errors, which
/// `JSONDecoder` reports without a path, that it blames a number). Without `exactPaths`, any
/// non-empty path will do when `JSONDecoder`'s is non-empty. Returns the verdict.
@discardableResult
func expectAgreement<T: Decodable>(
  _ type: T.Type,
  _ shape: RouteShape,
  _ text: String,
  references: [String: RouteShape] = [:],
  exactPaths: Bool = true,
  context: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) -> ShapeMatch? {
  let outcome = decoderOutcome(type, text)
  let verdict = shape.match(json: text, references: { references[$0] }, limits: unlimited)
  #expect(
    (verdict == .matches) == outcome.decodes,
    "\(context) \(text): validate says \(verdict), JSONDecoder \(outcome)",
    sourceLocation: sourceLocation)
  if case .undetermined(let why) = verdict, !shape.containsOpaque {
    Issue.record(
      "\(text): needs the app (\(why)) without opaque parts", sourceLocation: sourceLocation)
  }
  if case .mismatch(let path, let message) = verdict, !outcome.decodes {
    if outcome.pathIsReliable && !exactPaths {
      #expect(
        path.isEmpty == outcome.codingPath.isEmpty, "\(text): \(message) vs JSONDecoder \(outcome)",
        sourceLocation: sourceLocation)
    } else if outcome.pathIsReliable {
      #expect(
        path == outcome.codingPath, "\(text): \(message) vs JSONDecoder \(outcome)",
        sourceLocation: sourceLocation)
    } else {
      #expect(
        ["fit", "whole number", "not one of", "reads as", "not valid JSON", "malformed", "byte"]
          .contains { message.contains($0) },
        "\(text): \(message) at \(path) vs a number error", sourceLocation: sourceLocation)
    }
  }
  return verdict
}

/// Limits that never refuse a payload: the oracle tests compare with `JSONDecoder`, which has none
/// but its own 512 levels of nesting.
let unlimited = InputLimits(
  maxDocumentBytes: .max, maxPayloadBytes: .max, maxNestingDepth: .max)

/// Encodes a value with a plain `JSONEncoder`, as the registry stores routes.
func encodedText<T: Encodable>(_ value: T) throws -> String {
  String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
}

extension RouteShape {
  /// Whether a `[String: Value]` occurs anywhere in the shape.
  var containsDictionary: Bool {
    switch self {
    case .dictionary: true
    case .optional(let wrapped), .array(let wrapped): wrapped.containsDictionary
    case .object(let fields): fields.contains { $0.shape.containsDictionary }
    case .enumeration(let cases):
      cases.contains { $0.fields.contains { $0.shape.containsDictionary } }
    default: false
    }
  }
}
