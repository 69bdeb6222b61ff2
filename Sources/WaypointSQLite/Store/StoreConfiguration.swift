import Waypoint

/// How a ``SnapshotStore`` writes, waits, keeps history and guards against crash loops.
public struct StoreConfiguration: Hashable, Sendable {
  /// How hard a commit waits for the disk.
  public enum Durability: String, Hashable, Sendable {
    /// WAL with `synchronous=NORMAL`: survives an application crash; a power loss or OS crash may
    /// roll back the last commits, but never corrupts the file. The default (about 3× faster).
    case normal
    /// WAL with `synchronous=FULL` (and `fullfsync` on Apple platforms): every commit is on disk
    /// before `save` returns.
    case full
  }

  /// How hard a commit waits for the disk. Default ``Durability/normal``.
  public var durability: Durability
  /// How long a connection waits for another one's lock before giving up with
  /// ``StoreError/Code/busy``. Default 5 seconds.
  public var busyTimeout: Duration
  /// How many snapshots each scene keeps (quarantined ones are not counted and not removed by
  /// saving). Default 5; values below 1 are taken as 1.
  public var retention: Int { didSet { retention = max(1, retention) } }
  /// How many snapshots beyond ``retention`` a scene may hold before a save trims its history.
  /// Default 31; values below 0 are taken as 0.
  ///
  /// A save trims a scene's history only when, with the new snapshot, the scene holds more than
  /// `retention + retentionSlack` snapshots (quarantined ones counted), and then deletes every
  /// unquarantined snapshot but the newest `retention`. So a scene holds between `retention` and
  /// `retention + retentionSlack` unquarantined snapshots (with the defaults, 5 to 36: about 36
  /// KiB a scene for 1 KiB documents), and one save in 32 deletes anything: a trim rewrites the
  /// pages of the rows it deletes, the index and the freelist, and costs about as much for 32
  /// rows as for 8 (WAL pages per save 4.66 at 7, 4.40 at 31). `0` trims on every save, keeping
  /// exactly `retention`.
  public var retentionSlack: Int { didSet { retentionSlack = max(0, retentionSlack) } }
  /// How many unconfirmed restores of the same snapshot make it a crash loop. Default 2; values
  /// below 1 are taken as 1.
  public var crashLoopThreshold: Int { didSet { crashLoopThreshold = max(1, crashLoopThreshold) } }
  /// When the latest snapshot restores to the root (or is a crash loop), try the older ones, newest
  /// first. Default `false`: the root is the fallback.
  public var fallsBackToOlderSnapshots: Bool
  /// Caps on the documents saved and read. Default ``/Waypoint/InputLimits/default``.
  public var limits: InputLimits
  /// When a read-write store runs SQLite's `quick_check` over the whole file. Default
  /// ``IntegrityCheck/afterErrors``.
  ///
  /// Every open, whatever this says, checks that the file is an SQLite database (its header),
  /// that it is a Waypoint store (`PRAGMA application_id`), its schema version (refusing a
  /// newer one), and that the keys and indexes its queries search by are there (a schema edited
  /// without them would make a restore scan its tables). A read-write open also checks what costs
  /// the same for any size of file: that the file is not shorter than its header says (a
  /// truncated copy), and that the first and last row of each of the store's tables and indexes
  /// read. `quick_check` reads every page: about 1.5 s for a million snapshots with a warm cache,
  /// half a minute cold.
  public var integrityCheck: IntegrityCheck
  /// When the file is corrupt or not a database at all, move it aside (renamed, never deleted) and
  /// start a fresh store. Default `true`; tools that inspect files from elsewhere turn it off.
  public var recoversCorruptFiles: Bool
  /// How many pages the write-ahead log (WAL) may hold before a write copies it into the file (a
  /// checkpoint): the write whose commit leaves this many or more copies them before it returns,
  /// SQLite's own policy (`wal_autocheckpoint`); a restore's bookkeeping, which a launch makes on
  /// the main actor, never does, and leaves the copy to the next write. A checkpoint waits for the
  /// disk twice (`fsync`; `F_FULLFSYNC` with ``Durability/full`` on Apple platforms), and the WAL
  /// holds every commit until it is copied, so nothing is lost when a checkpoint is cut short.
  /// Every checkpoint runs inside a call of the store: none runs after a call returned. Values
  /// below 1 are taken as 1.
  ///
  /// The default, 100 pages (400 KiB), keeps the WAL short for launches: the first connection of
  /// a process reads the whole WAL to rebuild its index, about 2 µs a page on a 2-core Linux VM,
  /// so a launch that finds SQLite's default of 1,000 pages waits about 2 ms more than one that
  /// finds 100. Saves pay for it: with 1 KiB documents one save in twenty-odd checkpoints, for 1
  /// to 2 ms on that VM (mostly the waits for the disk), where with 1,000 pages one in two hundred
  /// took about 5 ms; the mean save costs about half as much again.
  public var checkpointAfterPages: Int {
    didSet { checkpointAfterPages = max(1, checkpointAfterPages) }
  }

  /// Creates a configuration; every value has the default described on its property.
  public init(
    durability: Durability = .normal,
    busyTimeout: Duration = .seconds(5),
    retention: Int = 5,
    crashLoopThreshold: Int = 2,
    fallsBackToOlderSnapshots: Bool = false,
    limits: InputLimits = .default,
    recoversCorruptFiles: Bool = true,
    retentionSlack: Int = 31,
    integrityCheck: IntegrityCheck = .afterErrors,
    checkpointAfterPages: Int = 100
  ) {
    self.durability = durability
    self.busyTimeout = busyTimeout
    self.retention = max(1, retention)
    self.crashLoopThreshold = max(1, crashLoopThreshold)
    self.fallsBackToOlderSnapshots = fallsBackToOlderSnapshots
    self.limits = limits
    self.recoversCorruptFiles = recoversCorruptFiles
    self.retentionSlack = max(0, retentionSlack)
    self.integrityCheck = integrityCheck
    self.checkpointAfterPages = max(1, checkpointAfterPages)
  }

  /// When a read-write store runs SQLite's `quick_check`, which reads the whole file.
  public enum IntegrityCheck: Hashable, Sendable {
    /// Never on its own: only ``SnapshotStore/checkIntegrity(full:)`` runs it.
    case never
    /// When a statement finds the file damaged (SQLite's `SQLITE_CORRUPT` or `SQLITE_NOTADB`):
    /// the check confirms it, and with ``StoreConfiguration/recoversCorruptFiles`` the file is
    /// moved aside and a fresh store opened at once (see ``SnapshotStore/recovery``); the call
    /// that found the damage still throws. The default.
    case afterErrors
    /// On every open (and after errors), before anything is written: the behaviour of earlier
    /// versions, whose open time grows with the file.
    case onOpen
    /// On one open in `n`, chosen at random (and after errors): a schedule that costs
    /// `1/n` of a check per launch on average. Values below 1 are taken as 1.
    case randomly(oneIn: Int)

    /// Whether this open runs the check.
    package func runsOnOpen() -> Bool {
      switch self {
      case .never, .afterErrors: false
      case .onOpen: true
      case .randomly(let oneIn): oneIn <= 1 || Int.random(in: 0..<oneIn) == 0
      }
    }
  }

  package var busyTimeoutMilliseconds: Int32 { Self.milliseconds(busyTimeout) }

  package static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    guard !milliseconds.overflow else { return seconds < 0 ? 0 : .max }
    return Int32(clamping: max(0, milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
  }
}
