/// Bounds on the URLs a ``DeepLinkTable`` reads; a URL over any of them is refused with
/// ``DeepLinkError/Code/tooLong`` before its path is matched.
public struct DeepLinkLimits: Sendable, Hashable {
  /// The longest URL read, in bytes of its absolute string (percent-encoded). Default 8 KiB.
  public var maxURLBytes: Int
  /// The most path segments read: the segments of the path that are not empty (`//` and a
  /// trailing `/` make no difference), and a custom scheme's host, which is the first. Default 32.
  public var maxSegments: Int
  /// The most query items read. Default 32.
  public var maxQueryItems: Int

  /// Limits; the defaults suit links typed, shared or put in a QR code. Values below 1 are taken
  /// as 1.
  public init(maxURLBytes: Int = 8 * 1024, maxSegments: Int = 32, maxQueryItems: Int = 32) {
    self.maxURLBytes = max(1, maxURLBytes)
    self.maxSegments = max(1, maxSegments)
    self.maxQueryItems = max(1, maxQueryItems)
  }
}
