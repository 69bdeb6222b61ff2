import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run of another program: its wall time, its own CPU time and peak resident memory (from
/// `wait4`, which reports the child alone) and its exit status.
struct ChildRun {
  var seconds: Double
  /// User and system time: the wall time less the waits (for the disk, for the CPU).
  var cpuSeconds: Double
  /// `wait4`'s `ru_maxrss`. On Linux it is at least the spawning process's own peak at the spawn
  /// (the child starts in the parent's memory, and `execve` keeps the larger high-water mark): a
  /// bound, not the tool's figure.
  var peakRSSBytes: Int
  /// The child's own peak resident memory, `VmHWM` of `/proc/PID/status` (the high-water mark of
  /// the memory `execve` gave it), read every 2 ms while it runs; `nil` where there is no `/proc`
  /// or the child ended before a read.
  var ownPeakRSSBytes: Int?
  var status: Int32
  var standardError: String
}

/// Runs `executable` with `arguments`, stdout to `/dev/null`, and waits for it.
func runChild(_ executable: String, _ arguments: [String]) throws -> ChildRun {
  let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent(
    "waypoint-bench-stderr-\(UUID().uuidString)"
  ).path
  defer { try? FileManager.default.removeItem(atPath: errorPath) }
  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
  #else
    var actions = posix_spawn_file_actions_t()
  #endif
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let environment =
    ProcessInfo.processInfo.environment.filter { $0.key != "WAYPOINT_DB" }
    .map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for pointer in environment { free(pointer) } }
  var pid = pid_t()
  let clock = ContinuousClock()
  let start = clock.now
  let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
  guard spawned == 0 else { throw BenchError("cannot run \(executable): error \(spawned)") }
  var status: Int32 = 0
  var usage = rusage()
  var ownPeak: Int?
  while true {
    let waited = wait4(pid, &status, WNOHANG, &usage)
    if waited == pid { break }
    if waited < 0 {
      guard errno == EINTR else { throw BenchError("wait4 failed: \(errno)") }
      continue
    }
    if let peak = highWaterMark(pid) { ownPeak = max(ownPeak ?? 0, peak) }
    var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
    nanosleep(&pause, nil)
  }
  let elapsed = clock.now - start
  #if canImport(Darwin)
    let peak = Int(usage.ru_maxrss)  // bytes
  #else
    let peak = Int(usage.ru_maxrss) * 1024  // kilobytes
  #endif
  let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  let standardError = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return ChildRun(
    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
    cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
    peakRSSBytes: peak, ownPeakRSSBytes: ownPeak, status: exited, standardError: standardError)
}

/// `VmHWM` of a running process, in bytes (`/proc/PID/status`, Linux); `nil` elsewhere.
private func highWaterMark(_ pid: pid_t) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
    let kilobytes = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3))
  else { return nil }
  return kilobytes * 1024
}

/// The `waypoint` executable built beside this one (`swift build` puts every product of a
/// configuration in one folder), or `nil`.
func waypointExecutable() -> String? {
  let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  let candidates = [
    Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("waypoint"),
    own.deletingLastPathComponent().appendingPathComponent("waypoint"),
  ].compactMap { $0?.path }
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
