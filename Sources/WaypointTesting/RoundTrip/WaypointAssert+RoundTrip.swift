import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

extension WaypointAssert {
  /// Proves, for each of `values` (the app's route values, or ones a generator made):
  /// - it survives record -> snapshot document -> store -> restore unchanged (a real store in a
  ///   temporary folder);
  /// - SwiftUI's `NavigationPath.CodableRepresentation` of all of them (type names from
  ///   `_typeName`, elements from a plain `JSONEncoder`, top first) restores to the same values
  ///   and is written back byte for byte;
  /// - the manifest's offline prediction (the manifest as written to a file and read back) agrees
  ///   with the real restore, for the value and for each mutation of its stored payload (renamed
  ///   tag, newer version, unreadable payload, each key or field removed, renamed or retyped,
  ///   unknown value), except where the prediction says only the app can tell (undetermined).
  ///
  /// Validators are left out of the prediction check: the manifest cannot know them.
  ///
  /// It also fails where it could not look: when `values` is empty, when `Route` is `CaseIterable`
  /// and `values` leaves a case out, and when a registered type's shape is unknown to the route
  /// manifest (an enum registered without `examples:`, or a type holding one), naming the type and
  /// the registration to complete: the manifest's checks (`manifestMatches`, `waypoint manifest
  /// diff`, offline validation) cannot judge what they cannot describe.
  ///
  /// - Throws: ``WaypointTestFailure`` with every finding: the value, the stored JSON, and what
  ///   came back or was predicted.
  public static func roundTrips<Route: RestorableRoute>(
    _ values: [Route], restoringWith restorer: Restorer, stack: String = SceneSnapshot.mainStackName
  ) throws(WaypointTestFailure) {
    var findings = coverageFindings(values, registry: restorer.registry)
    let registry = restorer.registry
    let records = values.map { registry.record(for: $0) }
    var device = try RelaunchSimulator(configuration: StoreConfiguration(limits: restorer.limits))
    defer { device.removeFiles() }
    // One launch saves every value, the next restores them.
    var saved: [Int] = []
    for (index, record) in records.enumerated() {
      let snapshot = SceneSnapshot(
        metadata: SnapshotMetadata(registry: registry), stacks: [stack: [record]])
      do {
        try snapshot.check()
        try SceneSnapshot(decoding: snapshot.encoded(), limits: restorer.limits).check()
        saved.append(index)
      } catch {
        findings.append("value \(index) (\(values[index])) cannot be saved: \(error)")
      }
    }
    try device.launch { store throws(WaypointTestFailure) in
      for index in saved {
        let snapshot = SceneSnapshot(
          metadata: SnapshotMetadata(registry: registry), stacks: [stack: [records[index]]])
        do {
          _ = try store.save(snapshot, scene: "value-\(index)")
        } catch {
          findings.append("value \(index) (\(values[index])) cannot be saved: \(error)")
        }
      }
    }
    try device.launch { store throws(WaypointTestFailure) in
      for index in saved {
        let scene = store.restore(scene: "value-\(index)", with: restorer).scene
        let back = scene.stack(stack).map { $0.value(as: Route.self) }
        if back != [values[index]] {
          findings.append(
            "value \(index) (\(values[index])) stored as \(records[index].json) came back as "
              + "[\(back.map { $0.map { "\($0)" } ?? "another type" }.joined(separator: ", "))]"
              + RelaunchText.drops(scene.report))
        }
      }
    }
    findings += navigationPathFindings(values, restorer: restorer, stack: stack)
    findings += predictionFindings(records, values: values, restorer: restorer, stack: stack)
    if let failure = WaypointTestFailure.combining(findings) { throw failure }
  }

  /// What the check could not look at: no values, a case of a `CaseIterable` route type left out
  /// of them, a registered type the manifest cannot describe for want of examples.
  private static func coverageFindings<Route: RestorableRoute>(
    _ values: [Route], registry: RouteRegistry
  ) -> [String] {
    var findings: [String] = []
    let name = _typeName(Route.self, qualified: false)
    if values.isEmpty {
      findings.append(
        "no values of \(name) to check: pass the app's route values, one of every case")
    }
    if let iterable = Route.self as? any CaseIterable.Type {
      let missing = cases(of: iterable, as: Route.self).filter { !values.contains($0) }
      if !missing.isEmpty {
        findings.append(
          "the values leave out \(missing.map { "\($0)" }.joined(separator: ", ")) of \(name) "
            + "(CaseIterable): add \(missing.count == 1 ? "it" : "them") to the values checked")
      }
    }
    let manifest = RouteManifest(registry: registry)
    for route in manifest.routes where route.shape.containsOpaque {
      let typeName = registry.routeTypes[route.tag].map { _typeName($0.type, qualified: false) }
      let type = typeName ?? route.tag
      findings.append(
        "\(route.tag) has no example of some of its cases: the route manifest cannot describe "
          + "it, so the manifest's checks cannot judge it. Register them: "
          + "registry.register(\(type).self, …, examples: [/* one value of every case */])")
    }
    return findings
  }

  /// The cases of a `CaseIterable` type, as values of `Route` (the same type).
  private static func cases<Route: RestorableRoute>(
    of iterable: any CaseIterable.Type, as route: Route.Type
  ) -> [Route] {
    func all<T: CaseIterable>(_ type: T.Type) -> [Route] {
      type.allCases.compactMap { $0 as? Route }
    }
    return all(iterable)
  }

  /// The path as SwiftUI writes `path.codable` for `values` (root first).
  static func navigationPathData<Route: RestorableRoute>(_ values: [Route]) -> Data {
    var strings: [String] = []
    for value in values.reversed() {
      strings.append(_typeName(Route.self, qualified: true))
      strings.append(
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "")
    }
    return (try? JSONEncoder().encode(strings)) ?? Data()
  }

  private static func navigationPathFindings<Route: RestorableRoute>(
    _ values: [Route], restorer: Restorer, stack: String
  ) -> [String] {
    let data = navigationPathData(values)
    let text = String(decoding: data, as: UTF8.self)
    let scene = restorer.restore(navigationPath: data, stack: stack)
    let back = scene.stack(stack).map { $0.value(as: Route.self) }
    if back != values.map(Optional.some) {
      let name = _typeName(Route.self, qualified: true)
      let hint =
        registry(restorer.registry, resolves: name)
        ? "" : "\n  SwiftUI names the type \(name): register it under that tag or alias"
      return [
        "the NavigationPath \(text) restored \(back.count) of \(values.count) values"
          + "\(RelaunchText.drops(scene.report))\(hint)"
      ]
    }
    let written = scene.navigationPathData(for: stack)
    guard written == data else {
      return [
        "the NavigationPath did not come back byte for byte:\n  read:    \(text)\n  written: "
          + String(decoding: written, as: UTF8.self)
      ]
    }
    return []
  }

  private static func registry(_ registry: RouteRegistry, resolves name: String) -> Bool {
    registry.tag(forTypeName: name) != nil || registry.tag(resolving: name) != nil
  }

  private static func predictionFindings<Route: RestorableRoute>(
    _ records: [RouteRecord], values: [Route], restorer: Restorer, stack: String
  ) -> [String] {
    let written = RouteManifest(registry: restorer.registry).encoded()
    let manifest: RouteManifest
    do {
      manifest = try RouteManifest(decoding: written)
    } catch {
      return ["the registry's manifest does not read back: \(error)"]
    }
    let plain = Restorer(
      registry: restorer.registry, policy: restorer.policy, limits: restorer.limits)
    var findings: [String] = []
    for (index, record) in records.enumerated() {
      let cases =
        [PayloadMutation(name: "unchanged", record: record)] + PayloadMutation.all(of: record)
      for mutation in cases {
        let snapshot = SceneSnapshot(
          metadata: SnapshotMetadata(registry: restorer.registry),
          stacks: [stack: [mutation.record]])
        let prediction = manifest.predict(snapshot, policy: plain.policy, limits: plain.limits)
        if prediction.hasUndetermined { continue }
        let real = plain.restore(snapshot).report
        if Self.summary(prediction.report) != Self.summary(real) {
          findings.append(
            "value \(index) (\(values[index])), \(mutation.name): stored \(mutation.record.tag) version "
              + "\(mutation.record.version) \(mutation.record.json)\n  predicted \(summary(prediction.report)), "
              + "restore gave \(summary(real))"
              + (prediction.report.dropped.count > real.dropped.count
                ? "\n  The manifest's shapes come from the registry's examples: register an "
                  + "example of every case and field" : ""))
        }
      }
    }
    return findings
  }

  /// `partial: stack main[0] removedCase` — what prediction and restore are compared on.
  private static func summary(_ report: RestoreReport) -> String {
    ([report.outcome.rawValue] + report.dropped.map { "\($0.location) \($0.reason.code)" })
      .joined(separator: ", ")
  }
}

/// Asserts ``WaypointAssert/roundTrips(_:restoringWith:stack:)``, reporting its failure to Swift
/// Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertRoundTrips<Route: RestorableRoute>(
  _ values: [Route], restoringWith restorer: Restorer,
  stack: String = SceneSnapshot.mainStackName,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.roundTrips(values, restoringWith: restorer, stack: stack)
  }
}
