import Foundation

/// How the navigator asks the system for time to finish a save when its scene leaves the
/// foreground: work started then only runs while the app holds background time.
///
/// On iOS, tvOS and visionOS it is `UIApplication.beginBackgroundTask(withName:expirationHandler:)`
/// and `endBackgroundTask(_:)`; on watchOS, `ProcessInfo.performExpiringActivity(withReason:using:)`;
/// on macOS, which does not suspend apps but may terminate them, an activity of `ProcessInfo`
/// (`beginActivity(options:reason:)`) that disables sudden and automatic termination. Elsewhere
/// (Linux, where the tests run) the work simply runs. Tests replace it with one that records the
/// order of the requests (``SceneNavigator/backgroundTime``).
public struct BackgroundTime: Sendable {
  /// Runs `work` holding background time named `name`, and gives the time back when it ends.
  let perform:
    @MainActor @Sendable (_ name: String, _ work: @escaping @MainActor () async -> Void) async ->
      Void

  /// Background time as `perform` gives it: it must run `work` to its end and return after it.
  public init(
    perform:
      @escaping @MainActor @Sendable (
        _ name: String, _ work: @escaping @MainActor () async -> Void
      ) async -> Void
  ) {
    self.perform = perform
  }

  /// The platform's own: `UIApplication`'s background tasks where UIKit has them, an expiring
  /// activity of `ProcessInfo` on watchOS, an activity that holds off termination on macOS, none
  /// elsewhere. When the system takes the time back before the work ends, the work still runs to
  /// its end (a save is short); nothing more is started.
  public static var system: BackgroundTime {
    BackgroundTime { name, work in
      #if canImport(UIKit) && !os(watchOS)
        await UIKitBackgroundTime.perform(name, work)
      #elseif os(watchOS)
        await ExpiringActivity.perform(name, work)
      #elseif os(macOS)
        let activity = ProcessInfo.processInfo.beginActivity(
          options: [.suddenTerminationDisabled, .automaticTerminationDisabled], reason: name)
        await work()
        ProcessInfo.processInfo.endActivity(activity)
      #else
        await work()
      #endif
    }
  }
}

#if canImport(UIKit) && !os(watchOS)
  import UIKit

  /// `UIApplication.beginBackgroundTask(withName:expirationHandler:)` around the work.
  enum UIKitBackgroundTime {
    /// The task's identifier, ended once: by the expiration handler or after the work.
    @MainActor
    final class Task {
      var identifier = UIBackgroundTaskIdentifier.invalid

      func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
      }
    }

    @MainActor
    static func perform(_ name: String, _ work: @escaping @MainActor () async -> Void) async {
      let task = Task()
      // Out of time: the task ends there; the save under way finishes on its own.
      task.identifier = UIApplication.shared.beginBackgroundTask(withName: name) { task.end() }
      await work()
      task.end()
    }
  }
#elseif os(watchOS)
  /// `ProcessInfo.performExpiringActivity(withReason:using:)` around the work: the activity's
  /// block (run on a queue of the system's, which may block) waits until the work ends.
  enum ExpiringActivity {
    @MainActor
    static func perform(_ name: String, _ work: @escaping @MainActor () async -> Void) async {
      let finished = DispatchSemaphore(value: 0)
      ProcessInfo.processInfo.performExpiringActivity(withReason: name) { expired in
        guard !expired else { return }
        finished.wait()
      }
      await work()
      finished.signal()
    }
  }
#endif
