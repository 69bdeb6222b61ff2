import Foundation
import Waypoint
import WaypointManifest

/// `waypoint manifest diff OLD NEW [--release NAME]`: what the routes saved by the release of `OLD`
/// become under the build of `NEW`, in route terms, for CI pipelines.
enum ManifestCommand: WaypointCommand {
  static let action = PositionalKey("ACTION", help: "diff (the one action).")
  static let old = PositionalKey(
    "OLD", help: "The manifest of the release that saved the routes ('-' for stdin).")
  static let new = PositionalKey(
    "NEW", help: "The manifest of the build that will restore them ('-' for stdin).")
  static let release = OptionKey<String>(
    "--release", value: "NAME",
    help: "The old release's name, for the texts (routes saved by NAME). Default: the old release.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "manifest",
      summary: "Compare two route manifests: which saved routes a new build would lose.",
      discussion: [
        "diff lists each difference between OLD and NEW in route terms, the ones that lose saved "
          + "routes first: a tag removed or renamed without an alias, a version or schema going "
          + "down, a case removed or a field added with no default or retyped without a version "
          + "bump. Notes follow: a version bumped without a migration, added tags, cases and "
          + "optional fields. It is the comparison of WaypointTesting's manifestMatches.",
        "Exits 1 when saved routes would be lost, 0 otherwise (also for notes only). An empty, "
          + "oversized, malformed or newer-format manifest exits 65, a missing one 66. "
          + "Reads no store.",
      ],
      positionals: [action.declaration, old.declaration, new.declaration],
      options: [release.declaration],
      usesStore: false)
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    guard context[action] == "diff" else {
      throw .unknownAction(context[action] ?? "", expected: ["diff"])
    }
    let oldPath = context[old] ?? ""
    let newPath = context[new] ?? ""
    guard oldPath != "-" || newPath != "-" else {
      throw .usage("OLD and NEW cannot both be read from stdin")
    }
    let committed = try ManifestInput.read(oldPath, console: context.console)
    let current = try ManifestInput.read(newPath, console: context.console)
    let name = context[release] ?? "the old release"
    let findings = ManifestDiff(committed: committed, current: current, release: name)
      .orderedFindings()
    let losses = findings.filter(\.losesRoutes).count
    if context.json {
      context.printJSON(
        DiffJSON(
          old: InputFile.name(oldPath), new: InputFile.name(newPath), release: name,
          losesRoutes: losses > 0, differences: findings.map(DifferenceJSON.init)))
    } else {
      let text = Formatting.printable
      context.console.out(
        "Comparing \(text(InputFile.name(oldPath))) with \(text(InputFile.name(newPath))):")
      for finding in findings {
        context.console.out(
          finding.losesRoutes
            ? "  " + context.style.red("loses routes") + ": \(text(finding.text))"
            : "  note: \(text(finding.text))")
      }
      if findings.isEmpty {
        context.console.out("No difference in routes.")
      } else {
        context.console.out(
          "\(Formatting.count(findings.count, "difference")), "
            + "\(losses) losing routes saved by \(text(name)).")
      }
    }
    return losses > 0 ? .problemsFound : .ok
  }

  private struct DiffJSON: JSONWritable {
    var old: String
    var new: String
    var release: String
    var losesRoutes: Bool
    var differences: [DifferenceJSON]

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("old", old)
        json.member("new", new)
        json.member("release", release)
        json.member("losesRoutes", losesRoutes)
        json.member("differences", differences)
      }
    }
  }

  private struct DifferenceJSON: JSONWritable {
    var text: String
    var losesRoutes: Bool

    init(_ finding: ManifestDiff.Finding) {
      text = finding.text
      losesRoutes = finding.losesRoutes
    }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("text", text)
        json.member("losesRoutes", losesRoutes)
      }
    }
  }
}
