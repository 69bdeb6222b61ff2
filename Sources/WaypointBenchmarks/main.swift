// waypoint-bench: the speed of Waypoint's save, restore, open and command-line tools, as ratios
// against baselines measured in the same run (raw sqlite3 C calls, plain JSONDecoder, rewriting one
// JSON file). See Docs/Performance.md.
//
//   swift run -c release waypoint-bench            a readable table (the 1M store is cached)
//   swift run -c release waypoint-bench --json     one JSON object of figures on stdout
//   swift run -c release waypoint-bench --import-file PATH [N]   writes the JSON Lines file that
//     `waypoint import` reads in the full run (N lines, default 50,000), to time the tools by hand
//   swift run -c release waypoint-bench --quick    small stores, under a minute (CI)
//   swift run -c release waypoint-bench --navigator [N]   a SceneNavigator's navigation changes
//   swift run -c release waypoint-bench --manifest PATH   writes its route manifest (for validate)
//   swift run -c release waypoint-bench --profile save|raw-insert|unchanged|restore|encode|judge
//     [N]   one operation in a loop, for perf or callgrind; with WAYPOINT_PROFILE_UNTRIMMED=1 no
//     trim in the loop, with WAYPOINT_PROFILE_EVICT=1 caches evicted before each operation
import Foundation
import Waypoint
import WaypointSQLite

let arguments = Array(CommandLine.arguments.dropFirst())
let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "waypoint-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

if arguments.contains("--navigator") {
  let iterations = arguments.lazy.compactMap { Int($0) }.first ?? 2000
  try await NavigatorBenchmark.run(iterations: iterations, in: directory)
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

// `--profile OPERATION [N]`: one operation alone in a loop, to find where its time goes.
if let index = arguments.firstIndex(of: "--profile") {
  let operation = index + 1 < arguments.count ? arguments[index + 1] : ""
  guard Profiling.operations.contains(operation) else {
    FileHandle.standardError.write(
      Data(
        "usage: waypoint-bench --profile \(Profiling.operations.joined(separator: "|")) [N]\n".utf8)
    )
    exit(64)
  }
  let iterations = arguments.lazy.compactMap { Int($0) }.first ?? 20_000
  try Profiling.run(operation, iterations: iterations, in: directory)
  try? FileManager.default.removeItem(at: directory)
  exit(0)
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
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

let unknown = arguments.filter { !["--json", "--quick"].contains($0) && Int($0) == nil }
guard unknown.isEmpty else {
  FileHandle.standardError.write(
    Data("usage: waypoint-bench [--json] [--quick] [ROUNDS] | --navigator [N]\n".utf8))
  exit(64)
}
var settings = arguments.contains("--quick") ? Settings.quick : Settings.full
if let rounds = arguments.lazy.compactMap({ Int($0) }).first { settings.rounds = max(1, rounds) }
do {
  let results = try Benchmark(
    settings: settings, directory: directory, json: arguments.contains("--json")
  )
  .run()
  if arguments.contains("--json") { print(results.json) }
} catch {
  FileHandle.standardError.write(Data("waypoint-bench: \(error)\n".utf8))
  exit(1)
}
