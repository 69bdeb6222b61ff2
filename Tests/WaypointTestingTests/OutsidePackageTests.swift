import Foundation
import Testing

/// An app package outside this repository depends on WaypointTesting by path and uses every part
/// of it: the guide's suite (builders, a frozen release, round trips, relaunches) under Swift
/// Testing, and the throwing forms, the simulator and a reporting form under XCTest.
@Suite("An app package outside the repository")
struct OutsidePackageTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "Shop",
      platforms: [.macOS(.v13), .iOS(.v16)],
      dependencies: [.package(path: "ROOT")],
      targets: [
        .target(name: "Shop", dependencies: [.product(name: "Waypoint", package: "IDENTITY")]),
        .testTarget(
          name: "ShopTests",
          dependencies: ["Shop", .product(name: "WaypointTesting", package: "IDENTITY")],
          exclude: ["Fixtures"]),
      ]
    )
    """

  static let routes = """
    import Waypoint

    public enum ShopTab: String, Codable, Hashable, Sendable { case shop, orders, account }

    public enum ShopRoute: Codable, Hashable, Sendable {
      case category(name: String)
      case product(id: Int)
      case order(id: Int)
      case settings
    }

    public enum ShopRoutes {
      public static func registry() -> RouteRegistry {
        RouteRegistry(schemaVersion: 1)
          .registering(ShopTab.self, examples: [.shop, .orders, .account])
          .registering(
            ShopRoute.self,
            examples: [.category(name: "Shoes"), .product(id: 1), .order(id: 1), .settings])
      }

      public static var restorer: Restorer { Restorer(registry: registry()) }
    }
    """

  static let xcTests = """

    final class ShopXCTests: XCTestCase {
      func testThrowingFormsAndSimulator() throws {
        let scene = SceneBuilder(registry: ShopRoutes.registry()).main(ShopRoute.settings).snapshot
        try WaypointAssert.roundTrips([ShopRoute.settings], restoringWith: ShopRoutes.restorer)
        try WaypointAssert.survivesDowngrade(
          scene, older: ShopRoutes.restorer, newer: ShopRoutes.restorer)
        var device = try RelaunchSimulator()
        defer { device.removeFiles() }
        try device.save(scene, scene: "a")
        XCTAssertEqual(try device.restore(scene: "a", with: ShopRoutes.restorer).report.outcome, .restored)
        var release = FrozenRelease("1.0", registry: ShopRoutes.registry())
        release.add("a", snapshot: scene)
        let folder = device.folder.appendingPathComponent("Fixtures")
        try release.record(in: folder, restoringWith: ShopRoutes.restorer)
        XCTAssertTrue(assertReleasesRestore(in: folder, with: ShopRoutes.restorer))
      }
    }
    """

  @Test("builds and passes its tests against this checkout, with no warnings")
  func outsidePackage() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-outside-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tests = folder.appendingPathComponent("Tests/ShopTests")
    let sources = folder.appendingPathComponent("Sources/Shop")
    for directory in [tests.appendingPathComponent("Fixtures"), sources] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    try Self.manifest.replacingOccurrences(of: "ROOT", with: Self.root.path)
      .replacingOccurrences(of: "IDENTITY", with: Self.root.lastPathComponent.lowercased())
      .write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try Self.routes.write(
      to: sources.appendingPathComponent("Routes.swift"), atomically: true, encoding: .utf8)
    // The guide's suite, without the route types (they live in the app's module here).
    let guide = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/WaypointTestingTests/GuideTests.swift"),
      encoding: .utf8)
    let start = try #require(guide.range(of: "enum ShopTab:"))
    let end = try #require(guide.range(of: "/// The frozen releases"))
    let suite =
      "import Shop\nimport XCTest\n"
      + String(guide[..<start.lowerBound]) + String(guide[end.lowerBound...]) + Self.xcTests
    try suite.write(
      to: tests.appendingPathComponent("ShopTests.swift"), atomically: true, encoding: .utf8)

    // The guide's first run records the manifest on purpose, and fails once saying so.
    let first = try Self.swiftTest(folder, recording: true)
    #expect(first.status != 0, "\(first.text)")
    #expect(first.text.contains("recorded the current manifest because WAYPOINT_RECORD_FIXTURES=1"))
    let run = try Self.swiftTest(folder, recording: false)
    #expect(run.status == 0, "\(run.text)")
    #expect(!run.text.contains("warning:"), "\(run.text)")
    #expect(run.text.contains("Test run with 5 tests in 1 suite passed"), "\(run.text)")
    #expect(run.text.contains("Executed 1 test, with 0 failures"), "\(run.text)")
    #expect(
      FileManager.default.fileExists(
        atPath: tests.appendingPathComponent("Fixtures/routes.manifest.json").path))
    let recorded = try FileManager.default.contentsOfDirectory(
      atPath: tests.appendingPathComponent("Fixtures/1.0").path)
    #expect(
      recorded.sorted() == [
        "expectations.json", "ipad.snapshot.json", "manifest.json", "phone.snapshot.json",
      ])
  }

  /// `swift test` in the package at `folder`, with or without WAYPOINT_RECORD_FIXTURES=1.
  static func swiftTest(_ folder: URL, recording: Bool) throws -> (status: Int32, text: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "test", "--package-path", folder.path]
    var environment = ProcessInfo.processInfo.environment
    environment["WAYPOINT_RECORD_FIXTURES"] = recording ? "1" : nil
    process.environment = environment
    let output = folder.appendingPathComponent("output-\(recording).txt")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
  }
}
