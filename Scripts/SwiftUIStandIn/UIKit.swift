// A stand-in of the few UIKit declarations WaypointNavigation uses (the background task around a
// flush), with Apple's documented signatures, for type-checking on Linux only. Never a target of
// the package: see README.md.
import Foundation

/// https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/invalid
  public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor
open class UIApplication {
  /// https://developer.apple.com/documentation/uikit/uiapplication/shared
  public class var shared: UIApplication { fatalError("stand-in") }

  /// https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)
  nonisolated public func beginBackgroundTask(
    withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
  ) -> UIBackgroundTaskIdentifier { fatalError("stand-in") }

  /// https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)
  nonisolated public func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
    fatalError("stand-in")
  }
}
