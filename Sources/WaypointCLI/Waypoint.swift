import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `waypoint` command-line tool.
@main
enum WaypointTool {
  static let version = "0.1.0"

  static let commands: [(name: String, summary: String)] = [
    ("demo", "Save an example app's scene, update the app, and restore what still decodes.")
  ]

  static var help: String {
    var lines = [
      "USAGE: waypoint <command> [options]",
      "",
      "Inspect and repair the navigation snapshots that Waypoint saves.",
      "",
      "COMMANDS:",
    ]
    for command in commands {
      lines.append(
        "  \(command.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(command.summary)")
    }
    lines += [
      "",
      "OPTIONS:",
      "  --help     Show this help.",
      "  --version  Show the version.",
    ]
    return lines.joined(separator: "\n")
  }

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    exit(run(arguments, console: .standard))
  }

  /// Runs the tool and returns its exit status (sysexits: 64 usage, 74 I/O error).
  static func run(_ arguments: [String], console: Console) -> Int32 {
    let print = console.out
    guard let first = arguments.first else {
      print(help)
      return 0
    }
    switch first {
    case "--help", "-h", "help":
      print(help)
      return 0
    case "--version":
      print("waypoint \(version)")
      return 0
    case "demo":
      let print = console.out
      var directory = "waypoint-demo"
      var rest = arguments.dropFirst()
      while let option = rest.popFirst() {
        switch option {
        case "--output":
          guard let value = rest.popFirst() else {
            return usage(console, "--output needs a directory")
          }
          directory = value
        case "--help", "-h":
          print("USAGE: waypoint demo [--output DIR]\n\n\(commands[0].summary)")
          print("Leaves its store, waypoint.sqlite, in DIR (default: waypoint-demo).")
          return 0
        default:
          return usage(console, "unknown option \(option) for demo")
        }
      }
      do {
        return try DemoCommand.run(outputDirectory: directory, print: console.out)
      } catch {
        console.err("waypoint demo: \(error)")
        return 74
      }
    default:
      return usage(console, "unknown command \(first)")
    }
  }

  static func usage(_ console: Console, _ message: String) -> Int32 {
    console.err("waypoint: \(message)\nRun 'waypoint --help' for the commands.")
    return 64
  }
}
