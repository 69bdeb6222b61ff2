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
  /// nothing but when the bytes reach the disk; the final flush still comes after it.
  final class BackgroundFlush: @unchecked Sendable {
    /// The pause between two flushes that found nothing to wait for.
    static let interval: TimeInterval = 0.05

    private let descriptor: Int32
    /// Guards `stopped` and `finished`.
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false

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
        // A failure is the final flush's to report.
        _ = fsync(descriptor)
        condition.lock()
        if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: Self.interval)) }
      }
      finished = true
      condition.broadcast()
      condition.unlock()
    }

    /// Stops the flushing, waits for the thread's last flush to end, and closes the file.
    func stop() {
      condition.lock()
      stopped = true
      condition.broadcast()
      while !finished { condition.wait() }
      condition.unlock()
      close(descriptor)
    }
  }
}
