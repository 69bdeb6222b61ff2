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
/// (`IN_MOVE_SELF`) and its end (`IN_DELETE_SELF`), and each folder on its path for a move (a
/// folder cannot be deleted or replaced while the file is in it). The kernel queues those events
/// within the system call that causes them, so a check that finds the queue empty knows what a
/// `stat` would have told it about every change that completed before it: nothing. What inotify
/// does not report (a file system mounted over a folder on the path, a network file system changed
/// from another machine) is left to the full check that ``Database/hasMoved()`` still runs at
/// least once a second.
///
/// Elsewhere (Apple platforms) there is no watch: ``shared`` is `nil` and every check is a `stat`.
///
/// Any event, a full queue, or a failing read makes the next check a full one; a watch that cannot
/// be added (the per-user limit of watches, a folder on the path that cannot be read) leaves that
/// connection on full checks. Nothing here ever answers "moved": only the full check does.
final class FileWatch: @unchecked Sendable {
  /// The process's watch, created at first use; `nil` where inotify is missing or refused.
  static let shared: FileWatch? = FileWatch()

  /// One connection's interest in one file: the watches of the file and of each folder on its
  /// path. The kernel gives one watch per inode, so connections to the same file (or to files in
  /// the same folder) share watch descriptors, and a watch is removed with its last registration.
  final class Registration {
    fileprivate let watch: FileWatch
    /// The watch descriptors of the file and of the folders on its path.
    fileprivate var descriptors: [Int32]
    /// An event arrived since ``takeEvents()`` last answered.
    fileprivate var pending = false
    /// The kernel dropped one of the watches (the file is gone), or the registration was cancelled.
    fileprivate var gone = false

    fileprivate init(watch: FileWatch, descriptors: [Int32]) {
      self.watch = watch
      self.descriptors = descriptors
    }

    /// Whether anything happened to the file or a folder on its path since the last call (or
    /// since the registration): reads the queue first, so that an event that arrives after this
    /// call is kept for the next. Always `true` once a watch is gone.
    func takeEvents() -> Bool {
      watch.lock.lock()
      defer { watch.lock.unlock() }
      watch.drain()
      defer { pending = false }
      return pending || gone
    }

    /// Ends the registration (the connection closes); the kernel's watches go with their last
    /// one.
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

    /// The events a registration is told about, for its file and for the folders on its path
    /// (`IN_MASK_ADD`: an inode watched for both keeps both).
    private static let fileEvents = UInt32(IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF | IN_MASK_ADD)
    private static let folderEvents = UInt32(IN_MOVE_SELF | IN_DELETE_SELF | IN_MASK_ADD)

    /// Watches the file at the absolute `path` (the inode the path leads to now) and the folders
    /// above it, from the root down; `nil` when the kernel refuses one of them or the path is not
    /// absolute.
    func register(_ path: UnsafePointer<CChar>) -> Registration? {
      let file = String(cString: path)
      guard file.hasPrefix("/") else { return nil }
      // "/a/b/f" -> "/a", "/a/b", then the file (the root cannot move).
      var targets: [(String, UInt32)] = []
      var folder = ""
      for component in file.split(separator: "/", omittingEmptySubsequences: true).dropLast() {
        folder += "/" + component
        targets.append((folder, Self.folderEvents))
      }
      targets.append((file, Self.fileEvents))
      lock.lock()
      defer { lock.unlock() }
      // Events queued for a descriptor before it is handed out again belong to an earlier file.
      drain()
      var descriptors: [Int32] = []
      for (target, events) in targets {
        let watchDescriptor = inotify_add_watch(descriptor, target, events)
        guard watchDescriptor >= 0 else {
          // Watches added here for no one else go again.
          for added in Set(descriptors) where registrations[added] == nil {
            _ = inotify_rm_watch(descriptor, added)
          }
          return nil
        }
        descriptors.append(watchDescriptor)
      }
      let registration = Registration(watch: self, descriptors: Array(Set(descriptors)))
      for watchDescriptor in registration.descriptors {
        registrations[watchDescriptor, default: []].append(registration)
      }
      return registration
    }

    /// Forgets `registration`, removing each kernel watch with its last one. Call with `lock`
    /// not held; a second call does nothing.
    fileprivate func remove(_ registration: Registration) {
      lock.lock()
      defer { lock.unlock() }
      for watchDescriptor in registration.descriptors {
        guard var list = registrations[watchDescriptor] else { continue }
        list.removeAll { $0 === registration }
        if list.isEmpty {
          registrations[watchDescriptor] = nil
          // Its IN_IGNORED event is read and dropped by a later drain (descriptors are not reused
          // soon: the kernel hands them out in a cycle).
          _ = inotify_rm_watch(descriptor, watchDescriptor)
        } else {
          registrations[watchDescriptor] = list
        }
      }
      registration.descriptors = []
      registration.gone = true
    }

    /// Reads every queued event and marks the registrations it concerns. Call with `lock` held.
    private func drain() {
      // On the stack: a temporary allocation over 1 KiB went to the heap (an aligned `malloc` and
      // its `free` on every check). The events read have no name (the watches are on the files
      // and folders themselves), 16 bytes each; the buffer still holds one with the longest name
      // (16 + NAME_MAX + 1 bytes), so that `read` never fails with EINVAL for a buffer too small.
      withUnsafeTemporaryAllocation(byteCount: 1024, alignment: 8) { buffer in
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
          // The kernel dropped the watch (the file's last link and last descriptor are gone, or
          // its file system was unmounted).
          for registration in list { registration.gone = true }
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
