/// Caps applied to untrusted input before it is parsed, so that a hostile or corrupt snapshot costs
/// bounded time and memory.
///
/// The defaults hold every realistic navigation state by a wide margin (a typical snapshot is well
/// under 4 KiB) while keeping the worst case small.
public struct InputLimits: Hashable, Sendable {
  /// The largest snapshot document or `NavigationPath` representation read, in bytes. Default 1 MiB.
  public var maxDocumentBytes: Int
  /// The largest JSON payload of a single route, in bytes. Default 64 KiB. A larger payload drops
  /// that route with ``DropReason/invalidPayload(_:)``.
  public var maxPayloadBytes: Int
  /// The deepest nesting of JSON arrays and objects, in a document or in one route's payload.
  /// Default 32.
  public var maxNestingDepth: Int

  /// Creates limits; each defaults to the value of ``default``.
  public init(
    maxDocumentBytes: Int = 1 << 20, maxPayloadBytes: Int = 64 << 10, maxNestingDepth: Int = 32
  ) {
    self.maxDocumentBytes = maxDocumentBytes
    self.maxPayloadBytes = maxPayloadBytes
    self.maxNestingDepth = maxNestingDepth
  }

  /// 1 MiB documents, 64 KiB payloads, 32 levels of nesting.
  public static let `default` = InputLimits()

  /// Throws if `bytes` is over the size limit `byteLimit`, nested deeper than ``maxNestingDepth``,
  /// or not JSON as `JSONDecoder` scans it (``JSONNodeScanner``): before any parser reads it, and
  /// without reading any number or string.
  ///
  /// - Throws: ``SnapshotFormatError/Code/tooLarge``, ``SnapshotFormatError/Code/nestingTooDeep``
  ///   (nested too deep before the text stops being JSON), or
  ///   ``SnapshotFormatError/Code/malformedJSON`` naming the place where it stops being JSON.
  package func check(_ bytes: some Collection<UInt8>, byteLimit: Int) throws(SnapshotFormatError) {
    try JSONStructure.check(bytes, byteLimit: byteLimit, maxDepth: maxNestingDepth)
  }
}
