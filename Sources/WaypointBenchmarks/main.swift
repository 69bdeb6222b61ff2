// waypoint-bench: Waypoint's speed in the app's terms (from route values to a durable row, launch
// to a restored scene, main-actor time per change) and its tools', as ratios against baselines
// measured in the same run (raw sqlite3 C calls, plain JSONDecoder, a JSON file). See
// Docs/Performance.md.
//
//   swift run -c release waypoint-bench            a readable table (the 1M store is cached)
//   swift run -c release waypoint-bench --json     one JSON object of figures on stdout
//   swift run -c release waypoint-bench --quick    small stores, a few minutes (CI); no app size
//   swift run -c release waypoint-bench --import-file PATH [N]   writes the JSON Lines file that
//     `waypoint import` reads in the full run (N lines, default 50,000), to time the tools by hand
//   swift run -c release waypoint-bench --manifest PATH   writes its route manifest (for validate)
//   swift run -c release waypoint-bench --launch-prepare STORE FILE, then --launch-child
//     navigator STORE | json FILE   one launch of the launch row, to time by hand (run
//     --launch-child session STORE after each navigator launch, as the row does)
import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

let arguments = Array(CommandLine.arguments.dropFirst())

// `--launch-prepare STORE FILE`: writes the launch row's scene into a new store and a JSON file,
// to time the launch children by hand.
if arguments.first == "--launch-prepare", arguments.count == 3 {
  try LaunchChild.prepare(store: arguments[1], file: arguments[2])
  exit(0)
}

// `--launch-child MODE PATH`: one launch of the launch row, alone in this process.
if arguments.first == "--launch-child", arguments.count == 3 {
  await LaunchChild.run(arguments[1], arguments[2])
}

// `--manifest PATH`: writes the benchmark's route manifest, to run `waypoint validate` by hand.
if let index = arguments.firstIndex(of: "--manifest"), index + 1 < arguments.count {
  try RouteManifest(registry: registry).encoded().write(
    to: URL(fileURLWithPath: arguments[index + 1]))
  exit(0)
}

// `--import-file PATH [N]`: writes the file `waypoint import` reads in the full run (N lines), to
// time `import` and `export` by hand.
if let index = arguments.firstIndex(of: "--import-file"), index + 1 < arguments.count {
  let lines = arguments.lazy.compactMap { Int($0) }.first ?? Settings.full.importLines
  try Benchmark.writeImportFile(arguments[index + 1], count: max(0, lines))
  exit(0)
}

let unknown = arguments.filter { !["--json", "--quick"].contains($0) && Int($0) == nil }
guard unknown.isEmpty else {
  FileHandle.standardError.write(
    Data("usage: waypoint-bench [--json] [--quick] [ROUNDS]\n".utf8))
  exit(64)
}
var settings = arguments.contains("--quick") ? Settings.quick : Settings.full
if let rounds = arguments.lazy.compactMap({ Int($0) }).first { settings.rounds = max(1, rounds) }
// The run's stores and files, removed when it ends, failed or not (`exit` skips a `defer`).
let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "waypoint-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
do {
  let results = try await Benchmark(
    settings: settings, directory: directory, json: arguments.contains("--json")
  )
  .run()
  if arguments.contains("--json") { print(results.json) }
} catch {
  FileHandle.standardError.write(Data("waypoint-bench: \(error)\n".utf8))
  try? FileManager.default.removeItem(at: directory)
  exit(1)
}
try? FileManager.default.removeItem(at: directory)
