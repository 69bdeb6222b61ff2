/// Memory a document is encoded into and kept from one encoding to the next
/// (``SceneSnapshot/encodeLocatingSavedAt(storedForm:into:)``): a store encodes every save into
/// the same buffer, so that a save allocates and frees no document.
///
/// Not thread-safe: one user at a time (a store uses its own under its lock). The bytes written
/// last stay valid until the next encoding into the buffer or ``release(above:)``.
package final class DocumentBuffer {
  // One user at a time, and no access stays open across a call that could reach it again: not
  // checked at run time (`@exclusivity(unchecked)`).
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>?
  @exclusivity(unchecked) private var capacity = 0
  /// The length of the document written last.
  @exclusivity(unchecked) package private(set) var count = 0

  package init() {}

  deinit { base?.deallocate() }

  /// Runs `body` on the document written last.
  package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E)
    -> R
  {
    try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
  }

  /// Frees the memory when there is more than `limit` bytes of it (however much of it the last
  /// document used): a document that was once large keeps nothing large alive.
  package func release(above limit: Int) {
    guard capacity > limit, let base else { return }
    base.deallocate()
    self.base = nil
    capacity = 0
    count = 0
  }

  /// The memory, taken out (a writer writes into it); `nil` when there is none.
  func take() -> (base: UnsafeMutablePointer<UInt8>, capacity: Int)? {
    guard let base else { return nil }
    defer {
      self.base = nil
      capacity = 0
      count = 0
    }
    return (base, capacity)
  }

  /// Keeps `base` (allocated for `capacity` bytes, of which `count` are the document), freeing
  /// any memory held before.
  func give(base: UnsafeMutablePointer<UInt8>, capacity: Int, count: Int) {
    self.base?.deallocate()
    self.base = base
    self.capacity = capacity
    self.count = count
  }
}
