import Foundation
import Testing
import Waypoint
import WaypointNavigation

@Suite("Deep link parameters")
struct DeepLinkParametersTests {
  @Test(
    "integers read decimal digits with an optional minus, and nothing that overflows",
    arguments: [
      ("0", 0), ("42", 42), ("-7", -7), ("007", 7), ("9223372036854775807", Int.max),
      ("-9223372036854775808", Int.min), ("99999999999999999999", nil),
      ("9223372036854775808", nil),
      ("", nil), ("-", nil), ("+1", nil), (" 1", nil), ("1 ", nil), ("1e3", nil), ("0x10", nil),
      ("١٢", nil), (String(repeating: "0", count: 30) + "1", nil),
    ] as [(String, Int?)])
  func integers(text: String, value: Int?) {
    #expect(Int(deepLinkText: text) == value)
  }

  @Test("UUIDs, booleans and enums read their texts and write them back")
  func otherTypes() {
    let id = UUID()
    #expect(UUID(deepLinkText: id.uuidString.lowercased()) == id)
    #expect(id.deepLinkText == id.uuidString)
    #expect(Bool(deepLinkText: "1") == true && Bool(deepLinkText: "false") == false)
    #expect(Bool(deepLinkText: "TRUE") == nil && Bool(deepLinkText: "yes") == nil)
    #expect(Shop.Section(deepLinkText: "shipped") == .shipped)
    #expect(Shop.Section(deepLinkText: "Shipped") == nil)
    #expect(Shop.Section.open.deepLinkText == "open")
    #expect(Shop.Section.deepLinkExpectation.contains("Section"))
    #expect(String(deepLinkText: "") == nil)
    for value in [Int.min, -1, 0, .max] { #expect(Int(deepLinkText: value.deepLinkText) == value) }
  }

  @Test("a required parameter throws when missing or bad; an optional one only when bad")
  func requiredAndOptional() throws {
    let parameters = DeepLinkParameters(path: ["id": "12"], query: ["page": "x", "q": "a"])
    #expect(try parameters.value("id", as: Int.self) == 12)
    #expect(try parameters.valueIfPresent("missing", as: Int.self) == nil)
    #expect(throws: DeepLinkError.self) { try parameters.value("missing", as: Int.self) }
    do {
      _ = try parameters.valueIfPresent("page", as: Int.self)
      Issue.record("a bad optional parameter was read")
    } catch {
      #expect(error.code == .badParameter && error.parameter == "page" && error.value == "x")
    }
    do {
      _ = try parameters.value("gone", as: String.self)
      Issue.record("a missing parameter was read")
    } catch {
      #expect(error.code == .missingParameter && error.parameter == "gone")
    }
    #expect(parameters["q"] == "a" && parameters["id"] == "12")
  }
}
