// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Waypoint",
  platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Waypoint", targets: ["Waypoint"]),
    .library(name: "WaypointSQLite", targets: ["WaypointSQLite"]),
    .library(name: "WaypointTesting", targets: ["WaypointTesting"]),
    .executable(name: "waypoint", targets: ["WaypointCLI"]),
  ],
  targets: [
    // On Apple platforms the SDK's `SQLite3` module is used instead (see `#if canImport(SQLite3)`).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
    ),
    .target(name: "Waypoint"),
    .target(
      name: "WaypointSQLite",
      dependencies: [
        "Waypoint",
        .target(
          name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
      ]
    ),
    .target(name: "WaypointTesting", dependencies: ["Waypoint"]),
    .executableTarget(name: "WaypointCLI", dependencies: ["Waypoint", "WaypointSQLite"]),
    .testTarget(name: "WaypointTests", dependencies: ["Waypoint"]),
    .testTarget(name: "WaypointSQLiteTests", dependencies: ["WaypointSQLite"]),
    .testTarget(name: "WaypointTestingTests", dependencies: ["WaypointTesting", "Waypoint"]),
    .testTarget(name: "WaypointCLITests", dependencies: ["WaypointCLI"]),
  ],
  swiftLanguageModes: [.v6]
)
