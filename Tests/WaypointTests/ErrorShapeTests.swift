import Foundation
import Testing

@testable import Waypoint
@testable import WaypointManifest

/// A reason that only an app knows, defined outside the module that declares `DropReason`.
extension DropReason.Code {
  static let offline = DropReason.Code(rawValue: "offline")
}

@Suite("Errors and drop reasons: extensible codes, one line each")
struct ErrorShapeTests {
  /// Every reason the core builds, with the line reports and the CLI have always printed.
  static let reasons: [(DropReason, DropReason.Code, String)] = [
    (.unknownTag, .unknownTag, "unknown tag"),
    (
      .undecodable(codingPath: "", message: "gone"), .undecodable,
      "no longer decodes: gone"
    ),
    (
      .undecodable(codingPath: "profile.userId", message: "expected Int"), .undecodable,
      "no longer decodes at profile.userId: expected Int"
    ),
    (
      .invalidPayload(.nestingTooDeep(limit: 4)), .invalidPayload,
      "payload refused: JSON is nested deeper than the limit of 4 levels"
    ),
    (
      .newerRouteVersion(stored: 3, supported: 2), .newerRouteVersion,
      "written by version 3 of its type, newer than 2"
    ),
    (.removedCase("faq", version: 2), .removedCase, "case faq was removed in version 2"),
    (
      .migrationFailed(tag: "A", version: 1, step: "plan", message: "loops"), .migrationFailed,
      "migration of A from version 1 failed at plan: loops"
    ),
    (
      .newerRouteSchema(found: 4, supported: 3), .newerRouteSchema,
      "newer version: written with route schema 4, this build knows up to 3"
    ),
    (.rejectedByValidator("no access"), .rejectedByValidator, "rejected: no access"),
    (.aboveFailedRoute(index: 1), .aboveFailedRoute, "stood above the failed route at index 1"),
    (.sceneReset, .sceneReset, "scene reset to the root because another part failed"),
    (.unknownValue("wide"), .unknownValue, "unknown value \"wide\", default used"),
    (
      .unreadableSnapshot(.missingField("format")), .unreadableSnapshot,
      "snapshot unreadable: missing field format"
    ),
    (
      .newerFormat(found: 2, supported: 1), .newerFormat,
      "snapshot format 2 is newer than this build reads (up to 1)"
    ),
  ]

  @Test(
    "each drop reason has its code and the one line reports have always printed", arguments: reasons
  )
  func reasonText(reason: DropReason, code: DropReason.Code, text: String) {
    #expect(reason.code == code)
    #expect(reason.description == text)
    #expect(reason.message == text)
    #expect(code.rawValue == "\(code)")
  }

  @Test("reasons built the same way are equal, and differ in any detail")
  func reasonEquality() {
    #expect(DropReason.removedCase("x", version: 2) == .removedCase("x", version: 2))
    #expect(DropReason.removedCase("x", version: 2) != .removedCase("x", version: 3))
    #expect(DropReason.removedCase("x", version: 2) != .removedCase("y", version: 2))
    #expect(
      Set([DropReason.sceneReset, .sceneReset, .unknownTag]) == [.sceneReset, .unknownTag])
    // Same words, other details: the coding path and the format error count.
    #expect(
      DropReason.undecodable(codingPath: "", message: "a")
        != DropReason(.undecodable, message: "no longer decodes: a"))
    #expect(
      DropReason.invalidPayload(.tooLarge(byteCount: 9, limit: 8)).formatError
        == .tooLarge(byteCount: 9, limit: 8))
  }

  @Test("a module adds its own codes, equal by name, and a switch over codes keeps a default")
  func extensibleCodes() {
    let reason = DropReason(.offline, message: "the account is offline")
    #expect(reason.code == .offline)
    #expect(reason.code == DropReason.Code(rawValue: "offline"))
    #expect(reason.code != .unknownTag)
    #expect(reason.description == "the account is offline")
    let kind =
      switch reason.code {
      case .unknownTag, .undecodable: "route changed"
      case .offline: "offline"
      default: "other"
      }
    #expect(kind == "offline")
  }

  @Test("format errors: a code, one line, and the field or limit they concern")
  func formatErrors() {
    let field = SnapshotFormatError.invalidField("savedAt", reason: "not a date")
    #expect(field.code == .invalidField)
    #expect(field.field == "savedAt")
    #expect(field.detail == "not a date")
    #expect(field.description == "invalid field savedAt: not a date")
    let large = SnapshotFormatError.tooLarge(byteCount: 102, limit: 64)
    #expect(large.code == .tooLarge)
    #expect(large.byteCount == 102 && large.limit == 64)
    #expect(large.description == "input is 102 bytes, over the limit of 64")
    #expect(large != .tooLarge(byteCount: 103, limit: 64))
    #expect(SnapshotFormatError.Code.malformedJSON.description == "malformedJSON")
    #expect(SnapshotFormatError.Code.malformedJSON != .notAnArray)
  }

  @Test("a manifest over the limits keeps the format error as its cause")
  func manifestCause() {
    let deep = Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
    let error = #expect(throws: ManifestError.self) { _ = try RouteManifest(decoding: deep) }
    #expect(error?.code == .tooLarge)
    let cause = error?.underlying as? SnapshotFormatError
    #expect(cause?.code == .nestingTooDeep)
    #expect(error?.description == "manifest refused: \(cause?.description ?? "-")")
  }
}
