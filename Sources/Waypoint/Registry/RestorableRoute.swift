/// What a value needs to be saved and restored by Waypoint: the same `Codable & Hashable` that
/// SwiftUI's `NavigationPath` asks of a codable element, plus `Sendable` so that restored state can
/// cross concurrency domains.
public typealias RestorableRoute = Codable & Hashable & Sendable
