/// The kit's assertions in their throwing form: each throws a ``WaypointTestFailure`` that says what
/// broke, and is usable from any test framework, or none.
///
/// Each also has a reporting form (`assertReleasesRestore(…)`, …) that records the same failure in
/// Swift Testing or XCTest at the caller's line.
public enum WaypointAssert {}
