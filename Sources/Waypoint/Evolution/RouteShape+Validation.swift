extension RouteShape {
  /// Whether `JSONDecoder().decode(T.self, from:)` would accept `value`, for the type `T` this shape
  /// describes, judged without the type.
  ///
  /// The rules are `JSONDecoder`'s own on this toolchain (see `Docs/RouteShapes.md`): an integer
  /// must be a whole number within its type's range in any spelling (`1.0` and `1e2` are integers),
  /// `Double` takes integers, `Bool` takes neither numbers nor strings, `null` is accepted only by an
  /// ``optional(_:)`` or a field that is not required, members that no field names are ignored, and
  /// an enum needs exactly one key that names a case, whose value is an object.
  ///
  /// Fields are checked in decoding order and the first definite error is reported, with its coding
  /// path in the dotted form of restore reports. Bad input never traps: a payload that reaches an
  /// ``opaque(_:)`` part, a tag that `references` does not describe, or a chain of more than 64
  /// references that consumes no JSON gives ``ShapeVerdict/needsApp(_:)`` unless it also has a
  /// definite error.
  ///
  /// - Parameters:
  ///   - value: The payload, as ``JSONValue`` parsed it.
  ///   - references: The shape registered under a tag, for ``reference(tag:)``; `nil` when the
  ///     manifest does not describe the tag.
  public func validate(
    _ value: JSONValue,
    references: (String) -> RouteShape? = { _ in nil }
  ) -> ShapeVerdict {
    withoutActuallyEscaping(references) { references in
      var validator = ShapeValidator(references: references)
      if let failure = validator.check(self, value, at: [], hops: 0) {
        return .invalid(
          codingPath: CodingPathDescription.dotted(failure.path), message: failure.message)
      }
      if let reason = validator.needsApp { return .needsApp(reason) }
      return .valid
    }
  }
}
