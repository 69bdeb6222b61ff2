import Waypoint

/// When a ``SceneNavigator`` saves and confirms its restore, and what its outcome records hold.
public struct NavigatorConfiguration: Sendable {
  /// How long changes are gathered before one save writes them all. Default half a second; a
  /// negative value is taken as zero (a save after each turn of the main actor).
  public var saveDelay: Duration { didSet { saveDelay = max(.zero, saveDelay) } }
  /// How long after the restore the navigator tells the crash-loop guard that the UI came up, if
  /// the app has not said so through ``SceneNavigator/uiIsUp()``. Default 2 seconds; `nil` waits for
  /// `uiIsUp()` alone. A negative value is taken as zero.
  public var confirmationDelay: Duration? {
    didSet { confirmationDelay = confirmationDelay.map { max(.zero, $0) } }
  }
  /// The app's build string, recorded with each snapshot and each restore's outcome record (for
  /// people and tools; never interpreted).
  public var appBuild: String?
  /// What becomes of tags and stack names in the restore's outcome record
  /// (``NavigatorEvent/restoredOutcome(_:)``): by default tags are kept and stack names left out.
  public var outcomeOptions: RestoreOutcome.Options

  /// Creates a configuration; every value has the default described on its property.
  public init(
    saveDelay: Duration = .milliseconds(500),
    confirmationDelay: Duration? = .seconds(2),
    appBuild: String? = nil,
    outcomeOptions: RestoreOutcome.Options = RestoreOutcome.Options()
  ) {
    self.saveDelay = max(.zero, saveDelay)
    self.confirmationDelay = confirmationDelay.map { max(.zero, $0) }
    self.appBuild = appBuild
    self.outcomeOptions = outcomeOptions
  }
}
