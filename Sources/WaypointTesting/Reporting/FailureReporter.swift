#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// Where an assertion was written, captured by the reporting forms' default arguments.
public struct AssertionLocation: Sendable {
  /// `#fileID`.
  public var fileID: String
  /// `#filePath` (a `StaticString`, as `XCTFail` needs).
  public var filePath: StaticString
  /// `#line`.
  public var line: UInt
  /// `#column`.
  public var column: UInt

  /// The location of the caller's call.
  public init(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// The one way the kit reports a failure to a test framework.
enum FailureReporter {
  /// Runs `check`, and reports its failure at `location`: to Swift Testing (`Issue.record`) when a
  /// Swift Testing test is running, otherwise to XCTest (`XCTFail`) where XCTest exists. Returns
  /// whether the check passed, so that code running under neither framework can still tell.
  @discardableResult
  static func run(
    at location: AssertionLocation, _ check: () throws(WaypointTestFailure) -> Void
  ) -> Bool {
    do {
      try check()
      return true
    } catch {
      report(error, at: location)
      return false
    }
  }

  /// Hands `failure` to the running framework. (Swift Testing requires a line and column of at
  /// least 1; a location built by hand with 0 is reported at 1.)
  static func report(_ failure: WaypointTestFailure, at location: AssertionLocation) {
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: failure.message),
          sourceLocation: SourceLocation(
            fileID: location.fileID, filePath: "\(location.filePath)",
            line: max(1, Int(clamping: location.line)),
            column: max(1, Int(clamping: location.column))))
        return
      }
    #endif
    #if canImport(XCTest)
      XCTFail(failure.message, file: location.filePath, line: location.line)
    #endif
  }
}
