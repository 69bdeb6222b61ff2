import Foundation

/// A fresh folder under the system's temporary directory, for one test.
func temporaryFolder(_ label: String = #function) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "waypoint-testing-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
