import Foundation
import Waypoint
import WaypointManifest

/// The options every command that judges snapshots against a route manifest shares: `--manifest
/// FILE` and `--policy`.
enum ManifestInput {
  /// `--manifest FILE`: optional for `show`, required (``OptionKey/required(_:)``) for the others.
  static let manifest = OptionKey<String>(
    "--manifest", value: "FILE",
    help: "The app's route manifest (RouteManifest(registry:).encoded()), '-' for stdin.")

  /// `--policy POLICY`, `cut` when it is not given.
  static let policy = OptionKey<RestorePolicy>(
    "--policy", value: "POLICY",
    help: "The app's restore policy: cut (the default: a failed route drops the ones above it), "
      + "drop (only failed routes) or reset (any failure restores the root).",
    parser: .choice(policies))

  /// The policy names, as the app's `RestorePolicy` cases.
  static let policies: [(name: String, value: RestorePolicy)] = [
    ("cut", .cutAtFirstFailure), ("drop", .dropFailingRoutes), ("reset", .resetOnAnyFailure),
  ]

  /// The manifest named by `--manifest`, or `nil` when the option is absent.
  ///
  /// - Throws: ``CLIError``: 66 for a missing file, 65 for one that is not a manifest.
  static func manifest(in context: CommandContext) throws(CLIError) -> RouteManifest? {
    guard let path = context[manifest] else { return nil }
    return try read(path, console: context.console)
  }

  /// The manifest in the file at `path` (`-` for stdin).
  ///
  /// - Throws: ``CLIError``: 66 for a missing file, 65 for one that is empty, oversized, not JSON,
  ///   of a newer manifest format, or otherwise not a manifest.
  static func read(_ path: String, console: Console) throws(CLIError) -> RouteManifest {
    let data = try InputFile.read(
      path, limit: RouteManifest.defaultLimits.maxDocumentBytes, console: console)
    do {
      return try RouteManifest(decoding: data)
    } catch {
      throw .data("\(InputFile.name(path)): \(error)")
    }
  }

  /// The policy named by `--policy`, `cut` by default.
  static func policy(in context: CommandContext) -> RestorePolicy {
    context[policy] ?? .cutAtFirstFailure
  }

  /// The policy's name on the command line.
  static func name(of policy: RestorePolicy) -> String {
    policies.first { $0.value == policy }?.name ?? "cut"
  }
}

extension RouteFate {
  /// One word for the fate: kept, migrated, dropped, undetermined.
  var word: String {
    switch self {
    case .kept: "kept"
    case .migrated: "migrated"
    case .dropped: "dropped"
    case .undetermined: "undetermined"
    }
  }
}
