// A stand-in of the few UIKit declarations WaypointNavigation uses (the background task around a
// flush) and the guides teach (an app delegate and a scene delegate that pass the scene session's
// id on), with Apple's documented signatures, for type-checking on Linux only. Never a target of
// the package: see README.md. UIKit's optional protocol methods are requirements with a default
// here (Linux has no `@objc optional`).
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

/// https://developer.apple.com/documentation/uikit/uiresponder
@MainActor
open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiscenesession
@MainActor
open class UISceneSession: NSObject {
  /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.struct
  public struct Role: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
  }

  /// https://developer.apple.com/documentation/uikit/uiscenesession/persistentidentifier
  public var persistentIdentifier: String { fatalError("stand-in") }

  /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.property
  public var role: UISceneSession.Role { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/uikit/uiscene
@MainActor
open class UIScene: UIResponder {
  /// https://developer.apple.com/documentation/uikit/uiscene/connectionoptions
  @MainActor
  open class ConnectionOptions: NSObject {}

  /// https://developer.apple.com/documentation/uikit/uiscene/session
  public var session: UISceneSession { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/uikit/uisceneconfiguration
@MainActor
open class UISceneConfiguration: NSObject {
  /// https://developer.apple.com/documentation/uikit/uisceneconfiguration/init(name:sessionrole:)
  public init(name: String?, sessionRole: UISceneSession.Role) { fatalError("stand-in") }

  /// https://developer.apple.com/documentation/uikit/uisceneconfiguration/delegateclass
  public var delegateClass: AnyClass?
}

/// https://developer.apple.com/documentation/uikit/uiapplicationdelegate
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
  /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:configurationforconnecting:options:)
  func application(
    _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
    options: UIScene.ConnectionOptions
  ) -> UISceneConfiguration

  /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:diddiscardscenesessions:)
  func application(
    _ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>)
}

extension UIApplicationDelegate {
  public func application(
    _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
    options: UIScene.ConnectionOptions
  ) -> UISceneConfiguration { fatalError("stand-in") }

  public func application(
    _ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>
  ) {}
}

/// https://developer.apple.com/documentation/uikit/uiscenedelegate
@MainActor
public protocol UISceneDelegate: NSObjectProtocol {
  /// https://developer.apple.com/documentation/uikit/uiscenedelegate/scene(_:willconnectto:options:)
  func scene(
    _ scene: UIScene, willConnectTo session: UISceneSession,
    options connectionOptions: UIScene.ConnectionOptions)
}

extension UISceneDelegate {
  public func scene(
    _ scene: UIScene, willConnectTo session: UISceneSession,
    options connectionOptions: UIScene.ConnectionOptions
  ) {}
}

/// https://developer.apple.com/documentation/uikit/uiwindowscenedelegate
@MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {}
