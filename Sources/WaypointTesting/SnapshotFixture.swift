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
  ///
  /// Match on ``code``; new codes may be added, so a `switch` over it needs a `default`.
  public struct LoadError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem the fixture file has.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private enum Value: String, Hashable, Sendable { case unreadable, unrecognized }
      private let value: Value
      private init(_ value: Value) { self.value = value }

      /// The file could not be read (or is not a regular file, or is too large); `underlying` says
      /// why.
      public static var unreadable: Code { Code(.unreadable) }
      /// The file is neither a JSON object nor a JSON array.
      public static var unrecognized: Code { Code(.unrecognized) }

      /// The code's name (`unreadable`).
      public var description: String { value.rawValue }
    }

    /// What kind of problem the fixture file has.
    public var code: Code
    /// The fixture file.
    public var path: String?
    /// One line for people, without the path: ``description`` puts the path in front.
    public var message: String
    /// The error that caused this one: the system's error for ``Code/unreadable``.
    public var underlying: (any Error & Sendable)?

    /// One line naming the file and the cause.
    public var description: String { path.map { "\($0): \(message)" } ?? message }
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

  /// The most bytes ``init(contentsOf:stack:)`` reads: far above any document a restore reads
  /// (1 MiB by default), and a bound on what a stray file costs a test run.
  public static let maxFileBytes = 64 << 20

  /// Loads a fixture file, telling a snapshot document from a `NavigationPath` array by its first
  /// non-blank character (after a UTF-8 byte order mark, which the restore reads past too). A
  /// `NavigationPath` array restores into `stack`.
  ///
  /// - Throws: ``LoadError``: ``LoadError/Code/unreadable`` when the file cannot be read, is not a
  ///   regular file (a folder, a FIFO, a device; a link is followed) or is larger than
  ///   ``maxFileBytes``; ``LoadError/Code/unrecognized`` when it starts with neither `{` nor `[`.
  public init(contentsOf url: URL, stack: String = SceneSnapshot.mainStackName) throws(LoadError) {
    let data: Data
    do {
      data = try FixtureFiles.read(url, limit: Self.maxFileBytes)
    } catch {
      let prefix = url.path + ": "
      let reason =
        error.message.hasPrefix(prefix)
        ? String(error.message.dropFirst(prefix.count)) : error.message
      throw LoadError(
        code: .unreadable, path: url.path, message: "cannot read fixture: \(reason)",
        underlying: error)
    }
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let text = data.starts(with: bom) ? data.dropFirst(bom.count) : data[...]
    let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    switch first {
    case UInt8(ascii: "{"): self.init(data: data, kind: .snapshotDocument)
    case UInt8(ascii: "["): self.init(data: data, kind: .navigationPath(stack: stack))
    default:
      throw LoadError(
        code: .unrecognized, path: url.path,
        message: "a fixture must be a snapshot document (JSON object) or a NavigationPath array")
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
