import Foundation

/// Where the tool writes: data and help to `out` (stdout), messages and errors to `err` (stderr).
/// Tests pass their own closures to capture both.
struct Console: Sendable {
  var out: @Sendable (String) -> Void
  var err: @Sendable (String) -> Void

  /// The process's standard output and standard error, a line per call.
  static let standard = Console(
    out: { Swift.print($0) },
    err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
  )
}
