import Foundation
import Testing

@testable import WaypointCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `setpriv`, to run the tool as the unprivileged user `nobody` when the tests run as root (file
/// permissions mean nothing to root).
let setpriv = "/usr/bin/setpriv"

/// Whether the tests can run the tool as `nobody`: they run as root and `setpriv` exists.
let canRunAsNobody = getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv)

/// Runs the built tool as `nobody` (uid and gid 65534, no supplementary groups).
func runAsNobody(_ arguments: [String], input: Data = Data()) throws -> Run {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: setpriv)
  process.arguments =
    ["--reuid=65534", "--regid=65534", "--clear-groups", try builtTool().path] + arguments
  let out = Pipe()
  let err = Pipe()
  let stdin = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin
  try process.run()
  try stdin.fileHandleForWriting.write(contentsOf: input)
  try stdin.fileHandleForWriting.close()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
    err: errText, outData: outData)
}

/// Stores the user may read but not write, run as a real unprivileged user. Where the tests do not
/// run as root (CI), these run on developers' machines and in the container; Docs/Security.md says
/// how to run them.
@Suite("read-only files and folders, as an unprivileged user", .enabled(if: canRunAsNobody))
struct PermissionTests {
  let directory = TemporaryDirectory()

  /// A store readable but not writable by `nobody`, in a folder it cannot write.
  func readOnlyStore() throws -> String {
    let path = try exampleStore(directory)
    #expect(chmod(path, 0o644) == 0)
    #expect(chmod(directory.url.path, 0o755) == 0)
    return path
  }

  @Test(
    "a store in a read-only folder is read by every reading command (as immutable)",
    arguments: [["scenes"], ["show", "phone"], ["history", "phone"], ["export"], ["stats"]])
  func reads(command: [String]) throws {
    let path = try readOnlyStore()
    let result = try runAsNobody(["--db", path] + command)
    #expect(result.status == 0, "\(command): \(result.err)")
  }

  @Test("a store in a read-only folder is checked, its quarantined snapshot a finding")
  func checks() throws {
    let path = try readOnlyStore()
    let check = try runAsNobody(["--db", path, "check", "--full"])
    // The example store holds a quarantined snapshot: a finding, not a failure.
    #expect(check.status == 1, "\(check.err)")
  }

  @Test(
    "writing commands on a read-only store exit 74 and change nothing",
    arguments: [["discard", "phone"], ["rollback", "phone", "--to", "1"]])
  func writes(command: [String]) throws {
    let path = try readOnlyStore()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let result = try runAsNobody(["--db", path] + command)
    #expect(result.status == 74, "\(command): \(result.err)")
    #expect(result.err.contains("read-only"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("import-path into a read-only store exits 74 and changes nothing")
  func importsRefused() throws {
    let path = try readOnlyStore()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let imported = try runAsNobody(
      ["--db", path, "import-path", "--scene", "phone", "-"],
      input: Data(#"["Swift.Int","1"]"#.utf8)
    )
    #expect(imported.status == 74)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("a new store in a read-only folder exits 74 and leaves no file")
  func newStore() throws {
    #expect(chmod(directory.url.path, 0o755) == 0)
    let path = directory.path("new.sqlite")
    let result = try runAsNobody(
      ["--db", path, "import-path", "--scene", "a", "-"], input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect(result.status == 74)
    #expect(result.err.contains("\(path): cannot create: permission denied"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
  }

  @Test("a store the user cannot read at all exits with a clear error, never a crash")
  func unreadable() throws {
    let path = try exampleStore(directory)
    #expect(chmod(path, 0o600) == 0)
    #expect(chmod(directory.url.path, 0o755) == 0)
    let result = try runAsNobody(["--db", path, "scenes"])
    #expect(result.status == 66, "\(result.err)")
    #expect(result.err == "waypoint scenes: \(path): cannot open: permission denied\n")
  }

  @Test(
    "an input file the user cannot read: the system's reason in the tool's words, exit 66",
    arguments: [
      ["import", "INPUT"], ["import-path", "--scene", "s", "INPUT"],
      ["validate", "--manifest", "INPUT"],
    ])
  func unreadableInput(arguments: [String]) throws {
    let path = try exampleStore(directory)
    #expect(chmod(path, 0o644) == 0)
    #expect(chmod(directory.url.path, 0o755) == 0)
    let input = directory.path("input.json")
    try Data("[]".utf8).write(to: URL(fileURLWithPath: input))
    #expect(chmod(input, 0o000) == 0)
    let result = try runAsNobody(
      ["--db", path] + arguments.map { $0 == "INPUT" ? input : $0 })
    #expect(result.status == 66, "\(result.err)")
    #expect(result.err == "waypoint \(arguments[0]): \(input): cannot open: permission denied\n")
  }
}
