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
  static let allowUnknownShapes = FlagKey(
    "--allow-unknown-shapes",
    help: "Exit 0 even when a tag's shape is not known (an enum registered without examples).")

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
        "A tag whose shape either manifest knows only in part (an enum registered without "
          + "examples: the manifest cannot list its cases) cannot be compared: it is listed as "
          + "such, and counts as a finding unless --allow-unknown-shapes is given.",
        "Exits 1 when saved routes would be lost or a tag could not be compared, 0 otherwise "
          + "(also for notes only). An empty, "
          + "oversized, malformed or newer-format manifest exits 65, a missing one 66. "
          + "Reads no store.",
      ],
      positionals: [action.declaration, old.declaration, new.declaration],
      options: [release.declaration, allowUnknownShapes.declaration],
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
    let blind = findings.filter(\.cannotCompare).count
    if context.json {
      context.printJSON(
        DiffJSON(
          old: InputFile.name(oldPath), new: InputFile.name(newPath), release: name,
          losesRoutes: losses > 0, cannotCompare: blind > 0,
          differences: findings.map(DifferenceJSON.init)))
    } else {
      let text = Formatting.printable
      context.console.out(
        "Comparing \(text(InputFile.name(oldPath))) with \(text(InputFile.name(newPath))):")
      for finding in findings {
        let label =
          finding.losesRoutes
          ? context.style.red("loses routes")
          : finding.cannotCompare ? context.style.yellow("cannot compare") : "note"
        context.console.out("  \(label): \(text(finding.text))")
      }
      if findings.isEmpty {
        context.console.out("No difference in routes.")
      } else {
        var summary =
          "\(Formatting.count(findings.count, "difference")), "
          + "\(losses) losing routes saved by \(text(name))"
        if blind > 0 {
          summary +=
            ", \(Formatting.count(blind, "tag")) not compared"
            + (context[allowUnknownShapes] ? " (allowed by --allow-unknown-shapes)" : "")
        }
        context.console.out(summary + ".")
      }
    }
    return losses > 0 || (blind > 0 && !context[allowUnknownShapes]) ? .problemsFound : .ok
  }

  private struct DiffJSON: JSONWritable {
    var old: String
    var new: String
    var release: String
    var losesRoutes: Bool
    var cannotCompare: Bool
    var differences: [DifferenceJSON]

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("old", old)
        json.member("new", new)
        json.member("release", release)
        json.member("losesRoutes", losesRoutes)
        json.member("cannotCompare", cannotCompare)
        json.member("differences", differences)
      }
    }
  }

  private struct DifferenceJSON: JSONWritable {
    var text: String
    var losesRoutes: Bool
    var cannotCompare: Bool

    init(_ finding: ManifestDiff.Finding) {
      text = finding.text
      losesRoutes = finding.losesRoutes
      cannotCompare = finding.cannotCompare
    }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("text", text)
        json.member("losesRoutes", losesRoutes)
        json.member("cannotCompare", cannotCompare)
      }
    }
  }
}
