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
  /// How many unconfirmed restores of the same snapshot make it a crash loop. Default 2; values
  /// below 1 are taken as 1.
  public var crashLoopThreshold: Int { didSet { crashLoopThreshold = max(1, crashLoopThreshold) } }
  /// When the latest snapshot restores to the root (or is a crash loop), try the older ones, newest
  /// first. Default `false`: the root is the fallback.
  public var fallsBackToOlderSnapshots: Bool
  /// Caps on the documents saved and read. Default ``/Waypoint/InputLimits/default``.
  public var limits: InputLimits
  /// When the file is corrupt or not a database at all, move it aside (renamed, never deleted) and
  /// start a fresh store. Default `true`; tools that inspect files from elsewhere turn it off.
  public var recoversCorruptFiles: Bool

  /// Creates a configuration; every value has the default described on its property.
  public init(
    durability: Durability = .normal,
    busyTimeout: Duration = .seconds(5),
    retention: Int = 5,
    crashLoopThreshold: Int = 2,
    fallsBackToOlderSnapshots: Bool = false,
    limits: InputLimits = .default,
    recoversCorruptFiles: Bool = true
  ) {
    self.durability = durability
    self.busyTimeout = busyTimeout
    self.retention = max(1, retention)
    self.crashLoopThreshold = max(1, crashLoopThreshold)
    self.fallsBackToOlderSnapshots = fallsBackToOlderSnapshots
    self.limits = limits
    self.recoversCorruptFiles = recoversCorruptFiles
  }

  var busyTimeoutMilliseconds: Int32 { Self.milliseconds(busyTimeout) }

  static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    guard !milliseconds.overflow else { return seconds < 0 ? 0 : .max }
    return Int32(clamping: max(0, milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
  }
}
