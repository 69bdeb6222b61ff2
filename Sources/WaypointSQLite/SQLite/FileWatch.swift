import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Tells a connection that nothing happened to its file since the last look, without a `stat` of
/// the path: the file-replaced check (``Database/hasMoved()``) runs before every write, and a
/// `stat` costs more than the rest of an unchanged save.
///
/// On Linux, one inotify instance for the whole process watches each open store file's inode for
/// a change of its links (`IN_ATTRIB`: deleted, or another file renamed over it), a move
/// (`IN_MOVE_SELF`) and its end (`IN_DELETE_SELF`). The kernel queues those events within the
/// system call that causes them, so a check that finds the queue empty knows what a `stat` would
/// have told it about every change that completed before it: nothing. What inotify does not
/// report (a folder above the file renamed, a network file system changed from another machine)
/// is left to the full check that ``Database/hasMoved()`` still runs at least once a second.
///
/// Elsewhere (Apple platforms) there is no watch: ``shared`` is `nil` and every check is a `stat`.
///
/// Any event, a full queue, or a failing read makes the next check a full one; a watch that cannot
/// be added (the per-user limit of watches) leaves that connection on full checks. Nothing here
/// ever answers "moved": only the full check does.
final class FileWatch: @unchecked Sendable {
  /// The process's watch, created at first use; `nil` where inotify is missing or refused.
  static let shared: FileWatch? = FileWatch()

  /// One connection's interest in one file. The kernel gives one watch per inode, so connections
  /// to the same file share a watch descriptor, and the watch is removed with its last
  /// registration.
  final class Registration {
    fileprivate let watch: FileWatch
    /// The watch descriptor; `-1` once the kernel dropped the watch (the file is gone).
    fileprivate var descriptor: Int32
    /// An event arrived since ``takeEvents()`` last answered.
    fileprivate var pending = false

    fileprivate init(watch: FileWatch, descriptor: Int32) {
      self.watch = watch
      self.descriptor = descriptor
    }

    /// Whether anything happened to the file since the last call (or since the registration):
    /// reads the queue first, so that an event that arrives after this call is kept for the next.
    /// Always `true` once the watch is gone.
    func takeEvents() -> Bool {
      watch.lock.lock()
      defer { watch.lock.unlock() }
      watch.drain()
      defer { pending = false }
      return pending || descriptor < 0
    }

    /// Ends the registration (the connection closes); the kernel's watch goes with the last one.
    func cancel() { watch.remove(self) }
  }

  private let lock = NSLock()
  private let descriptor: Int32
  /// Each watch descriptor's registrations; under `lock`.
  private var registrations: [Int32: [Registration]] = [:]

  #if os(Linux)
    private init?() {
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      self.descriptor = descriptor
    }

    /// The events a registration is told about.
    private static let events = UInt32(IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF)

    /// Watches the file at `path` (the inode the path leads to now); `nil` when the kernel refuses.
    func register(_ path: UnsafePointer<CChar>) -> Registration? {
      lock.lock()
      defer { lock.unlock() }
      // Events queued for a descriptor before it is handed out again belong to an earlier file.
      drain()
      let watchDescriptor = inotify_add_watch(descriptor, path, Self.events)
      guard watchDescriptor >= 0 else { return nil }
      let registration = Registration(watch: self, descriptor: watchDescriptor)
      registrations[watchDescriptor, default: []].append(registration)
      return registration
    }

    /// Forgets `registration`, removing the kernel's watch with the last one. Call with `lock`
    /// not held; a second call does nothing.
    fileprivate func remove(_ registration: Registration) {
      lock.lock()
      defer { lock.unlock() }
      let watchDescriptor = registration.descriptor
      guard watchDescriptor >= 0, var list = registrations[watchDescriptor] else { return }
      list.removeAll { $0 === registration }
      registration.descriptor = -1
      if list.isEmpty {
        registrations[watchDescriptor] = nil
        // Its IN_IGNORED event is read and dropped by a later drain (descriptors are not reused
        // soon: the kernel hands them out in a cycle).
        _ = inotify_rm_watch(descriptor, watchDescriptor)
      } else {
        registrations[watchDescriptor] = list
      }
    }

    /// Reads every queued event and marks the registrations it concerns. Call with `lock` held.
    private func drain() {
      withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
        while true {
          let count = read(descriptor, buffer.baseAddress, buffer.count)
          if count < 0 && errno == EINTR { continue }
          guard count > 0 else {
            // EAGAIN: the queue is empty. Any other failure: nobody can tell what was missed.
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { markAll() }
            return
          }
          mark(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
      }
    }

    /// Marks the registrations named by the events in `events` (whole `inotify_event` records).
    private func mark(_ events: UnsafeRawBufferPointer) {
      let header = MemoryLayout<inotify_event>.size
      var offset = 0
      while offset + header <= events.count {
        let watchDescriptor = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
        let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
        let nameLength = events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
        offset += header + Int(nameLength)
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          markAll()
          continue
        }
        guard let list = registrations[watchDescriptor] else { continue }
        for registration in list { registration.pending = true }
        if mask & UInt32(IN_IGNORED) != 0 {
          // The kernel dropped the watch (the file's last link and last descriptor are gone).
          for registration in list { registration.descriptor = -1 }
          registrations[watchDescriptor] = nil
        }
      }
    }

    private func markAll() {
      for list in registrations.values {
        for registration in list { registration.pending = true }
      }
    }
  #else
    private init?() { return nil }

    func register(_ path: UnsafePointer<CChar>) -> Registration? { nil }

    fileprivate func remove(_ registration: Registration) {}

    private func drain() {}
  #endif
}
