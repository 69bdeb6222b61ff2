// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Waypoint",
  platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "Waypoint", targets: ["Waypoint"]),
    .library(name: "WaypointSQLite", targets: ["WaypointSQLite"]),
    .library(name: "WaypointManifest", targets: ["WaypointManifest"]),
    .library(name: "WaypointTesting", targets: ["WaypointTesting"]),
    .library(name: "WaypointNavigation", targets: ["WaypointNavigation"]),
    .executable(name: "waypoint", targets: ["WaypointCLI"]),
    // The benchmark of issue #10: `swift run -c release waypoint-bench [--json] [--quick]`.
    .executable(name: "waypoint-bench", targets: ["WaypointBenchmarks"]),
  ],
  targets: [
    // On Apple platforms the SDK's `SQLite3` module is used instead (see `#if canImport(SQLite3)`).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
    ),
    // sqlite3_db_config is variadic: Swift calls it through this one C function.
    .target(name: "CSQLiteConfig"),
    .target(name: "Waypoint"),
    // Route manifests: the routes' shapes (probed from the types and their examples), the offline
    // prediction of a restore, repair plans and the comparison of two manifests. For tools and
    // test suites: no app needs to link it.
    .target(name: "WaypointManifest", dependencies: ["Waypoint"]),
    .target(
      name: "WaypointSQLite",
      dependencies: [
        "Waypoint",
        "CSQLiteConfig",
        .target(
          name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
      ]
    ),
    // What only the tool (and the tests) use of the store: streaming whole stores, importing,
    // backing up, checking and salvaging files. Not a product: no app links it.
    .target(
      name: "WaypointTools",
      dependencies: [
        "Waypoint", "WaypointSQLite",
        .target(
          name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
      ]),
    // The test kit: fixtures, frozen releases, relaunches against a real store (WaypointSQLite),
    // reporting to Swift Testing and XCTest from the toolchain.
    .target(
      name: "WaypointTesting", dependencies: ["Waypoint", "WaypointSQLite", "WaypointManifest"]),
    // The navigator: an observable router that restores and saves itself (Foundation and
    // Observation only; the SwiftUI glue compiles where SwiftUI exists).
    .target(name: "WaypointNavigation", dependencies: ["Waypoint", "WaypointSQLite"]),
    .executableTarget(
      name: "WaypointCLI",
      dependencies: [
        "Waypoint", "WaypointManifest", "WaypointSQLite", "WaypointNavigation", "WaypointTools",
        "ExampleShop",
      ]),
    // The example shop in three releases whose route types changed, which Waypoint's own tests
    // protect with WaypointTesting (Tests/ExampleShopTests). Not a product.
    .target(name: "ExampleShop", dependencies: ["Waypoint"]),
    // A second process for the store's tests (inter-process locking, crashes). Not a product.
    .executableTarget(
      name: "WaypointTestHelper",
      dependencies: [
        "Waypoint", "WaypointSQLite", "WaypointNavigation", "WaypointTools",
        .target(
          name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
      ]
    ),
    // Speed of save and restore as ratios against raw sqlite3 calls and plain JSONDecoder.
    .executableTarget(
      name: "WaypointBenchmarks",
      dependencies: [
        "Waypoint", "WaypointManifest", "WaypointSQLite", "WaypointNavigation", "WaypointTools",
        .target(
          name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
      ]
    ),
    .testTarget(name: "WaypointTests", dependencies: ["Waypoint", "WaypointManifest"]),
    .testTarget(
      name: "WaypointSQLiteTests",
      dependencies: ["WaypointSQLite", "WaypointTools", "WaypointTestHelper"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "WaypointTestingTests",
      dependencies: [
        "WaypointTesting", "Waypoint", "WaypointManifest", "WaypointSQLite", "ExampleShop",
      ],
      // The frozen release that Docs/Testing.md's code records, read by path.
      exclude: ["Fixtures"]),
    .testTarget(
      name: "ExampleShopTests",
      dependencies: ["ExampleShop", "Waypoint", "WaypointSQLite", "WaypointTesting"],
      // The shop's frozen releases 1.0, 2.0, 3.0 and its committed manifest, read by path.
      exclude: ["Fixtures"]),
    .testTarget(
      name: "WaypointNavigationTests",
      dependencies: ["WaypointNavigation", "Waypoint", "WaypointSQLite", "WaypointTestHelper"]),
    .testTarget(
      name: "WaypointCLITests",
      dependencies: [
        // WaypointTesting proves the release folders that `fixtures record` writes.
        "WaypointCLI", "Waypoint", "WaypointManifest", "WaypointSQLite", "WaypointTools",
        "WaypointTesting", "ExampleShop",
        .target(
          name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
      ],
      // The expected help texts, compared by the tests.
      exclude: ["Snapshots"]),
  ],
  swiftLanguageModes: [.v6]
)
