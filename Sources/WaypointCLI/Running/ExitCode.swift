/// The tool's exit statuses (sysexits where one fits). Scripts rely on them: never renumber.
enum ExitCode: Int32, Hashable, Sendable {
  /// Done.
  case ok = 0
  /// The command ran, and found problems (`check`).
  case problemsFound = 1
  /// The command line is wrong (`EX_USAGE`).
  case usage = 64
  /// The data is bad: not a Waypoint store, a corrupt file, a malformed input file, a scene or
  /// snapshot the store does not hold (`EX_DATAERR`).
  case dataError = 65
  /// A file to read does not exist or cannot be opened (`EX_NOINPUT`).
  case noInput = 66
  /// An output file is refused: something stands where it would go that the command must not
  /// replace (the store it reads, a directory, a file without `--force`) (`EX_CANTCREAT`).
  case cantCreate = 73
  /// Reading or writing failed (`EX_IOERR`).
  case ioError = 74
  /// The store is busy (locked by another connection): try again (`EX_TEMPFAIL`).
  case busy = 75

  /// What each status means, for help.
  static let meanings: [(ExitCode, String)] = [
    (.ok, "Done."),
    (.problemsFound, "The command ran and found problems (check)."),
    (.usage, "The command line is wrong."),
    (
      .dataError,
      "Bad data: not a Waypoint store, a corrupt file, a malformed input, an unknown scene."
    ),
    (.noInput, "The store or input file does not exist, or is a directory."),
    (
      .cantCreate,
      "An output file is refused: it is the store, a directory, or exists and --force is not given."
    ),
    (.ioError, "Reading or writing failed."),
    (.busy, "The store is locked by another connection: try again."),
  ]
}
