import Foundation
import Waypoint

extension RouteShape {
  /// Whether `JSONDecoder().decode(T.self, from:)` would accept `value`, for the type `T` this shape
  /// describes, judged without the type. See ``match(json:references:limits:)``.
  package func match(
    _ value: JSONValue,
    references: (String) -> RouteShape? = { _ in nil }
  ) -> ShapeMatch {
    do {
      let json = try JSONStructure(scanning: Array(value.jsonText.utf8), maxDepth: .max)
      return match(json, references: references)
    } catch {
      return .mismatch(codingPath: "", message: error.description)
    }
  }

  /// Whether `JSONDecoder().decode(T.self, from:)` would accept the payload `json`, for the type `T`
  /// this shape describes, judged without the type.
  ///
  /// The rules are `JSONDecoder`'s own on this toolchain (see `Docs/RouteShapes.md`): the payload's
  /// structure must scan as `JSONDecoder` scans it, while a number or a string is judged only where
  /// the type reads it (`{"home":{},"zz":1e400}` is a valid `home`); an integer must be a whole
  /// number within its type's range in any spelling (`1.0` and `1e2` are integers), a `Float` is read
  /// from the text, never through a `Double`; `Double` takes integers, `Bool` takes neither numbers
  /// nor strings, `null` is accepted only by an ``optional(_:)`` or a field that is not required,
  /// every key of an object that is read must be valid, the first of duplicate keys wins, members
  /// that no field names are ignored, and an enum needs exactly one key that names a case, whose
  /// value is an object; other keys are ignored.
  ///
  /// Fields are checked in decoding order and the first definite error is reported, with its coding
  /// path in the dotted form of restore reports. Bad input never traps: a payload over `limits` or
  /// that does not scan is ``ShapeMatch/mismatch(codingPath:message:)`` at the top; a payload that
  /// reaches an ``opaque(_:)`` part, a tag that `references` does not describe, or a chain of more
  /// than 64 references that consumes no JSON gives ``ShapeMatch/undetermined(_:)`` unless it also has
  /// a definite error; so does a match that would take more than 2^20 steps
  /// (`ShapeMatcher.budget`) from where it stops.
  ///
  /// - Parameters:
  ///   - json: The payload's JSON text.
  ///   - references: The shape registered under a tag, for ``reference(tag:)``; `nil` when the
  ///     manifest does not describe the tag.
  ///   - limits: Caps on the payload's size and nesting.
  package func match(
    json: String,
    references: (String) -> RouteShape? = { _ in nil },
    limits: InputLimits = .default
  ) -> ShapeMatch {
    do {
      let structure = try JSONStructure(
        scanning: json.utf8, byteLimit: limits.maxPayloadBytes, maxDepth: limits.maxNestingDepth)
      return match(structure, references: references)
    } catch {
      return .mismatch(codingPath: "", message: error.description)
    }
  }

  /// Whether the payload scanned as `json` matches, as ``match(json:references:limits:)`` says.
  package func match(_ json: JSONStructure, references: (String) -> RouteShape?) -> ShapeMatch {
    withoutActuallyEscaping(references) { references in
      var matcher = ShapeMatcher(json, references: references)
      if let failure = matcher.check(self, json.root, hops: 0) {
        return .mismatch(
          codingPath: CodingPathDescription.dotted(failure.path), message: failure.message)
      }
      if let reason = matcher.undetermined { return .undetermined(reason) }
      return .matches
    }
  }
}
