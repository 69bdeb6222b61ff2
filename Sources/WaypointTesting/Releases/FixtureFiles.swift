import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// File operations of the frozen releases: names checked before they reach a path, writes to a
/// temporary name followed by a rename, reads bounded in size.
enum FixtureFiles {
  /// The environment variable that re-records the expectations on purpose.
  static var recordVariable: String { WaypointAssert.recordFixturesVariable }
  /// The most bytes read from an expectations file or a manifest.
  static let maxSmallFileBytes = 1 << 20

  /// Why `name` cannot name a release or a fixture (it becomes part of a path), or `nil`.
  static func problem(withName name: String) -> String? {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    if name.isEmpty { return "a name cannot be empty" }
    if name.count > 100 { return "a name has at most 100 characters" }
    if name.first == "." { return "a name cannot start with '.'" }
    if !name.allSatisfy(allowed.contains) {
      return "a name uses only ASCII letters and digits, '-', '_' and '.'"
    }
    return nil
  }

  /// Reads `url`, a regular file (a link is followed) of at most `limit` bytes. The size is the
  /// open file's, and no more than `limit + 1` bytes are read whatever it claims.
  ///
  /// - Throws: ``WaypointTestFailure`` when the file cannot be opened or read, is not a regular
  ///   file (a folder, a FIFO, a device), or is larger than `limit`.
  static func read(_ url: URL, limit: Int) throws(WaypointTestFailure) -> Data {
    let path = url.path
    func failure(_ what: String) -> WaypointTestFailure {
      WaypointTestFailure("\(path): \(what): \(String(cString: strerror(errno)))")
    }
    // O_NONBLOCK: opening a FIFO without a writer returns at once (it is refused below).
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("cannot open") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw failure("cannot read") }
    guard status.st_mode & S_IFMT == S_IFREG else {
      let kind = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file"
      throw WaypointTestFailure("\(path): cannot read: it is \(kind)")
    }
    guard status.st_size <= limit else {
      throw WaypointTestFailure("\(path): \(status.st_size) bytes, more than the \(limit) allowed")
    }
    let data: Data
    do {
      let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
      // One byte past the limit tells a file that grew since fstat.
      data = try handle.read(upToCount: limit < Int.max ? limit + 1 : limit) ?? Data()
    } catch {
      throw WaypointTestFailure("\(path): cannot read: \(error.localizedDescription)")
    }
    guard data.count <= limit else {
      throw WaypointTestFailure("\(path): more than the \(limit) bytes allowed")
    }
    return data
  }

  /// Writes `data` to a temporary name beside `url`, then renames it over `url` (replacing the
  /// file: only for files the caller was asked to replace).
  static func replace(_ url: URL, with data: Data) throws(WaypointTestFailure) {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(UUID().uuidString)")
    do {
      try data.write(to: temporary)
    } catch {
      throw WaypointTestFailure("\(url.path): cannot write: \(error.localizedDescription)")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let cause = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw WaypointTestFailure("\(url.path): cannot rename into place: \(cause)")
    }
  }

  /// Moves the folder `source` to `destination`, which must not exist: a recorded release is never
  /// overwritten unless the caller asked for it.
  static func move(_ source: URL, to destination: URL, replacing: Bool) throws(WaypointTestFailure)
  {
    let manager = FileManager.default
    var old: URL?
    if manager.fileExists(atPath: destination.path) {
      guard replacing else {
        try? manager.removeItem(at: source)
        throw WaypointTestFailure(
          "\(destination.path) exists: a recorded release is never overwritten; pass "
            + "replacing: true to record it again")
      }
      let aside = destination.deletingLastPathComponent().appendingPathComponent(
        ".\(destination.lastPathComponent).old-\(UUID().uuidString)")
      guard rename(destination.path, aside.path) == 0 else {
        let cause = String(cString: strerror(errno))
        try? manager.removeItem(at: source)
        throw WaypointTestFailure("\(destination.path): cannot move aside: \(cause)")
      }
      old = aside
    }
    guard rename(source.path, destination.path) == 0 else {
      let cause = String(cString: strerror(errno))
      if let old { _ = rename(old.path, destination.path) }
      try? manager.removeItem(at: source)
      throw WaypointTestFailure("\(destination.path): cannot rename into place: \(cause)")
    }
    if let old { try? manager.removeItem(at: old) }
  }
}
