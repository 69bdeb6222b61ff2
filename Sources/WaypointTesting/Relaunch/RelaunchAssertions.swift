import Foundation
import Waypoint
import WaypointSQLite

/// Asserts ``WaypointAssert/survivesRelaunch(_:scene:restoringWith:expecting:configuration:)``,
/// reporting its failure to Swift Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertSurvivesRelaunch(
  _ snapshot: SceneSnapshot, scene: String = "main", restoringWith restorer: Restorer,
  expecting outcome: RestoreReport.Outcome = .restored,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.survivesRelaunch(
      snapshot, scene: scene, restoringWith: restorer, expecting: outcome)
  }
}

/// Asserts ``WaypointAssert/crashLoopEndsAtRoot(_:scene:restoringWith:configuration:)``,
/// reporting its failure to Swift Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertCrashLoopEndsAtRoot(
  _ snapshot: SceneSnapshot, scene: String = "main", restoringWith restorer: Restorer,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.crashLoopEndsAtRoot(snapshot, scene: scene, restoringWith: restorer)
  }
}

/// Asserts ``WaypointAssert/survivesDowngrade(_:scene:older:newer:configuration:)``, reporting its
/// failure to Swift Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertSurvivesDowngrade(
  _ snapshot: SceneSnapshot, scene: String = "main", older: Restorer, newer: Restorer,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.survivesDowngrade(snapshot, scene: scene, older: older, newer: newer)
  }
}

/// Asserts ``WaypointAssert/discardedSceneRestoresToRoot(_:scene:restoringWith:configuration:)``,
/// reporting its failure to Swift Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertDiscardedSceneRestoresToRoot(
  _ snapshot: SceneSnapshot, scene: String = "main", restoringWith restorer: Restorer,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.discardedSceneRestoresToRoot(
      snapshot, scene: scene, restoringWith: restorer)
  }
}
