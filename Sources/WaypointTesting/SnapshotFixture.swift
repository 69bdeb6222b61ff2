import Foundation
import Waypoint

/// A frozen snapshot that an app's test suite keeps from a released version, to prove that the
/// current route types still restore it.
///
/// A fixture file holds either a Waypoint snapshot document (a JSON object, `Docs/SnapshotFormat.md`)
/// or a SwiftUI `NavigationPath.CodableRepresentation` (a JSON array of strings), as captured from
/// `path.codable`. The file is read as it is; problems in it surface in the restore report, exactly
/// as they would in the app.
///
/// ```swift
/// @Test func version1ShopStackStillRestores() throws {
///   let fixture = try SnapshotFixture(contentsOf: Bundle.module.url(forResource: "1.0-shop", withExtension: "json")!)
///   let scene = fixture.restore(with: Restorer(registry: .app))
///   #expect(scene.report.outcome == .restored)
/// }
/// ```
public struct SnapshotFixture: Sendable {
  /// What a fixture file holds.
  public enum Kind: Sendable, Hashable {
    /// A Waypoint snapshot document.
    case snapshotDocument
    /// A `NavigationPath.CodableRepresentation`, restored into the stack named `stack`.
    case navigationPath(stack: String)
  }

  /// Why a fixture could not be loaded.
  public enum LoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read; the payload is the system's explanation.
    case unreadable(path: String, String)
    /// The file is neither a JSON object nor a JSON array.
    case unrecognized(path: String)

    /// One line naming the file and the cause.
    public var description: String {
      switch self {
      case .unreadable(let path, let why): "\(path): cannot read fixture: \(why)"
      case .unrecognized(let path):
        "\(path): a fixture must be a snapshot document (JSON object) or a NavigationPath array"
      }
    }
  }

  /// The fixture's bytes, unchanged.
  public var data: Data
  /// What the bytes hold.
  public var kind: Kind

  /// A fixture from bytes already in memory.
  public init(data: Data, kind: Kind) {
    self.data = data
    self.kind = kind
  }

  /// Loads a fixture file, telling a snapshot document from a `NavigationPath` array by its first
  /// non-blank character. A `NavigationPath` array restores into `stack`.
  ///
  /// - Throws: ``LoadError`` when the file cannot be read or starts with neither `{` nor `[`.
  public init(contentsOf url: URL, stack: String = SceneSnapshot.mainStackName) throws(LoadError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(path: url.path, error.localizedDescription)
    }
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    switch first {
    case UInt8(ascii: "{"): self.init(data: data, kind: .snapshotDocument)
    case UInt8(ascii: "["): self.init(data: data, kind: .navigationPath(stack: stack))
    default: throw .unrecognized(path: url.path)
    }
  }

  /// Restores the fixture as the app would at launch.
  public func restore(with restorer: Restorer) -> RestoredScene {
    switch kind {
    case .snapshotDocument: restorer.restore(encoded: data)
    case .navigationPath(let stack): restorer.restore(navigationPath: data, stack: stack)
    }
  }
}
