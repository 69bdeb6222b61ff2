import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StoreFile {
  /// Flushes a file to the disk (`fsync`) again and again on a thread of its own while a new store
  /// is built into it, until ``stop()``: the disk writes what the build has already handed to the
  /// system while the build goes on, instead of all of it in the one flush at the end. It changes
  /// nothing but when the bytes reach the disk; the final flush still comes after it. A flush that
  /// fails is reported by ``stop()``: Linux reports a write-back error to one `fsync` only, so the
  /// final flush could succeed after it.
  final class BackgroundFlush: @unchecked Sendable {
    /// The pause between two flushes that found nothing to wait for.
    static let interval: TimeInterval = 0.05

    private let descriptor: Int32
    /// Guards `stopped`, `finished` and `failure`.
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false
    /// The `errno` of the first flush that failed.
    private var failure: Int32?

    /// Starts flushing the file at `path`; `nil` when it cannot be opened (nothing is flushed
    /// early, which changes nothing else).
    init?(path: String) {
      descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      let thread = Thread { [self] in run() }
      thread.start()
    }

    private func run() {
      condition.lock()
      while !stopped {
        condition.unlock()
        let failed = fsync(descriptor) != 0 ? errno : nil
        condition.lock()
        if failure == nil { failure = failed }
        if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: Self.interval)) }
      }
      finished = true
      condition.broadcast()
      condition.unlock()
    }

    /// Stops the flushing, waits for the thread's last flush to end, and closes the file.
    ///
    /// - Returns: the `errno` of the first flush that failed, or `nil`.
    @discardableResult
    func stop() -> Int32? {
      condition.lock()
      stopped = true
      condition.broadcast()
      while !finished { condition.wait() }
      let failed = failure
      condition.unlock()
      close(descriptor)
      return failed
    }
  }
}
