import Foundation

/// The code Waypoint adds to an app: `Scripts/app-code-size` builds a minimal executable with and
/// without the app's products (Waypoint, WaypointSQLite, WaypointNavigation), strips both and
/// prints the difference in bytes. Run from the package's folder; `nil` (a null figure) elsewhere.
enum AppCodeSize {
  static func measure(log: (String) -> Void) -> Double {
    let script = "Scripts/app-code-size"
    guard FileManager.default.isExecutableFile(atPath: script) else {
      log("app code size: \(script) not found here (run from the package's folder); left out")
      return .nan
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: script)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      log("app code size: \(script) did not run: \(error)")
      return .nan
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let bytes = text.split(separator: "\n").last.flatMap({ Double($0.split(separator: " ")[0]) })
    else {
      log("app code size: \(script) failed: \(text)")
      return .nan
    }
    log("")
    log("app code size (\(script)): \(Int(bytes)) bytes of stripped code for the app's products")
    return bytes
  }
}
