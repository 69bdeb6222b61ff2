import Testing
import XCTest

@testable import WaypointTesting

@Suite("Failure reporting")
struct FailureReporterTests {
  @Test("a failure under Swift Testing is recorded as an issue at the caller's line")
  func swiftTestingIssue() {
    let line: UInt = #line + 3
    var passed = true
    withKnownIssue {
      passed = FailureReporter.run(at: AssertionLocation()) { () throws(WaypointTestFailure) in
        throw WaypointTestFailure("stack main[1] was dropped")
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["stack main[1] was dropped"]
        && issue.sourceLocation?.line == Int(line)
        && issue.sourceLocation?.fileID == #fileID
    }
    #expect(!passed)
  }

  @Test("a passing check records nothing and answers true")
  func passingCheck() {
    // An issue recorded here would fail this test.
    #expect(FailureReporter.run(at: AssertionLocation()) {})
  }

  @Test("a location of line 0 is reported at line 1, not trapped on")
  func zeroLine() {
    withKnownIssue {
      FailureReporter.report(
        WaypointTestFailure("x"),
        at: AssertionLocation(fileID: "App/T.swift", filePath: "/T.swift", line: 0, column: 0))
    } matching: { issue in
      issue.sourceLocation?.line == 1 && issue.sourceLocation?.column == 1
    }
  }

  @Test("several findings are one failure separated by blank lines; none is no failure")
  func combining() {
    #expect(WaypointTestFailure.combining([]) == nil)
    #expect(WaypointTestFailure.combining(["a", "b"])?.message == "a\n\nb")
  }
}

/// Under XCTest (no Swift Testing test running), the failure goes to `XCTFail`.
final class FailureReporterXCTests: XCTestCase {
  private var recorded: [(message: String, line: Int)] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    recorded.append((description, lineNumber))
  }

  func testFailureGoesToXCTFailAtTheCallersLine() {
    let line = #line + 1
    let passed = FailureReporter.run(at: AssertionLocation()) { () throws(WaypointTestFailure) in
      throw WaypointTestFailure("scene shop restored to the root")
    }
    XCTAssertFalse(passed)
    XCTAssertEqual(recorded.count, 1)
    XCTAssertEqual(recorded.first?.line, line)
    XCTAssertEqual(recorded.first?.message.hasSuffix("scene shop restored to the root"), true)
  }
}
