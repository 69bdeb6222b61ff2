/// The tool's exit statuses (sysexits where one fits). Scripts rely on them: never renumber.
enum ExitCode: Int32, Hashable, Sendable {
  /// Done.
  case ok = 0
  /// The command ran, and found problems (`check`, `validate`, `repair --dry-run`, `manifest diff`,
  /// `outcomes summarize --fail-above`).
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

  /// What each status means, for help. Docs/CLI.md's table of exit statuses says the same, word for
  /// word (a test compares them).
  static let meanings: [(ExitCode, String)] = [
    (.ok, "Done."),
    (
      .problemsFound,
      "The command ran and found problems (check, validate, repair --dry-run, a recover that could "
        + "not read everything, a manifest diff that loses saved routes or could not compare a tag, "
        + "an outcomes summarize over --fail-above)."
    ),
    (
      .usage,
      "Usage error: an unknown command or option, a missing or malformed value, a missing or extra "
        + "argument, an argument or WAYPOINT_DB that is not UTF-8."
    ),
    (
      .dataError,
      "Bad data: not a Waypoint store, an empty file, a corrupt file, a store from a newer schema, a "
        + "document that cannot be read, a malformed input file (naming the line for import), outcome "
        + "records of which none reads, a scene id the store refuses, a scene or snapshot id the "
        + "store does not hold."
    ),
    (.noInput, "The store or an input file does not exist, or is a directory."),
    (
      .cantCreate,
      "An output file is refused (can't create): it is the store the command reads (or its -wal, "
        + "-shm or -journal), a directory, or an existing file without --force; a new store where a "
        + "dangling symbolic link or a stray journal stands."
    ),
    (
      .ioError,
      "Reading or writing failed (an I/O error, a full disk, a read-only location, a missing folder "
        + "for an output file)."
    ),
    (.busy, "The store is busy (locked by another connection): try again."),
  ]
}
