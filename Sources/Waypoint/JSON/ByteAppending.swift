extension [UInt8] {
  /// Appends `bytes` with one copy. (`append(contentsOf:)` of an `UnsafeRawBufferPointer` goes
  /// byte by byte: the raw buffer offers no typed contiguous storage.)
  @inlinable
  package mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    append(
      contentsOf: UnsafeBufferPointer(
        start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
  }
}
