import Foundation
import Waypoint

/// The options every command that judges snapshots against a route manifest shares: `--manifest
/// FILE` and `--policy`.
enum ManifestInput {
  static let manifestOption = "--manifest"
  static let policyOption = "--policy"

  /// The policy names, as the app's `RestorePolicy` cases.
  static let policies: [(name: String, policy: RestorePolicy)] = [
    ("cut", .cutAtFirstFailure), ("drop", .dropFailingRoutes), ("reset", .resetOnAnyFailure),
  ]

  static func manifestDeclaration(required: Bool) -> OptionDeclaration {
    .option(
      manifestOption, value: "FILE",
      help: "The app's route manifest (RouteManifest(registry:).encoded()), '-' for stdin.",
      required: required)
  }

  static var policyDeclaration: OptionDeclaration {
    .option(
      policyOption, value: "POLICY",
      help: "The app's restore policy: cut (the default: a failed route drops the ones above it), "
        + "drop (only failed routes) or reset (any failure restores the root).")
  }

  /// The manifest named by `--manifest`, or `nil` when the option is absent.
  ///
  /// - Throws: ``CLIError``: 66 for a missing file, 65 for one that is not a manifest.
  static func manifest(_ context: CommandContext) throws(CLIError) -> RouteManifest? {
    guard let path = context.arguments.value(manifestOption) else { return nil }
    let data = try InputFile.read(
      path, limit: RouteManifest.defaultLimits.maxDocumentBytes, console: context.console)
    do {
      return try RouteManifest(decoding: data)
    } catch {
      throw .data("\(InputFile.name(path)): \(error)")
    }
  }

  /// The policy named by `--policy`, `cut` by default.
  static func policy(_ context: CommandContext) throws(CLIError) -> RestorePolicy {
    guard let name = context.arguments.value(policyOption) else { return .cutAtFirstFailure }
    guard let match = policies.first(where: { $0.name == name }) else {
      throw .usage("\(policyOption) takes cut, drop or reset, not '\(Formatting.printable(name))'")
    }
    return match.policy
  }

  /// The policy's name on the command line.
  static func name(of policy: RestorePolicy) -> String {
    policies.first { $0.policy == policy }?.name ?? "cut"
  }
}

extension RouteFate {
  /// One word for the fate: kept, migrated, dropped, needs-app.
  var word: String {
    switch self {
    case .kept: "kept"
    case .migrated: "migrated"
    case .dropped: "dropped"
    case .undetermined: "needs-app"
    }
  }
}
