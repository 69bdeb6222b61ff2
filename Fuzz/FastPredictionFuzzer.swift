// Fuzz target `fast-prediction`: `waypoint validate`'s judgement straight from the bytes, read as
// a store keeps them (FastPrediction, RouteShape.certainlyMatches), must answer only what the full
// prediction says of the bytes expanded (StoredDocument),
// and a predictor that remembers payload layouts across inputs what one that walks every payload
// says.
// Built by Scripts/fuzz with the package's sources; `manifest` is the `restore` target's.
import Foundation

/// A predictor kept from one input to the next, so that the layouts of the payloads it judged
/// (`PayloadLayouts`) meet the payloads of later inputs.
nonisolated(unsafe) var rememberingPrediction = FastPrediction(manifest: manifest, limits: .default)

/// The bytes as a snapshot document and as a payload of every route of the manifest.
func fuzzFastPrediction(_ data: Data) {
  var fast = FastPrediction(manifest: manifest, limits: .default, remembersLayouts: false)
  let walked = data.withUnsafeBytes { fast.keptRoutes(in: $0) }
  // Layouts remembered from earlier inputs give the walk's answer.
  let remembered = data.withUnsafeBytes { rememberingPrediction.keptRoutes(in: $0) }
  guard remembered == walked else {
    fatalError(
      "with layouts \(String(describing: remembered)), walked \(String(describing: walked))")
  }
  if let kept = walked {
    // The bytes are read as a store keeps them: the full prediction reads their expansion, which
    // must be within the limit.
    guard let document = StoredDocument.expandedDocument(data, limits: .default) else {
      fatalError("the fast prediction kept \(kept) routes of bytes over the limit once expanded")
    }
    for policy in RestorePolicy.allCases {
      let full = manifest.predict(encoded: document, policy: policy)
      let allKept = full.entries.allSatisfy { if case .kept = $0.fate { true } else { false } }
      guard full.report.outcome == .restored, full.entries.count == kept, allKept else {
        fatalError("the fast prediction kept \(kept) routes; the prediction says \(full.report)")
      }
    }
  }
  // The bytes as a payload written inside a JSON string: certain only when they are a string's
  // bytes whose text matches.
  for route in manifest.routes {
    let certain = data.withUnsafeBytes {
      route.shape.certainlyMatches(
        escaped: $0, references: { manifest.route(named: $0)?.shape }, limits: .default)
    }
    guard certain else { continue }
    guard
      let text = try? JSONDecoder().decode(
        String.self, from: Data("\"".utf8) + data + Data("\"".utf8))
    else { fatalError("certain on escaped bytes that are no JSON string") }
    let verdict = route.shape.match(json: text, references: { manifest.route(named: $0)?.shape })
    guard verdict == .matches else {
      fatalError("certain on escaped bytes whose text \(route.tag) judges \(verdict)")
    }
  }
  // Payloads are strings: only valid UTF-8 is one.
  guard let text = String(data: data, encoding: .utf8) else { return }
  for route in manifest.routes {
    let certain = data.withUnsafeBytes {
      route.shape.certainlyMatches(
        bytes: $0, references: { manifest.route(named: $0)?.shape }, limits: .default)
    }
    guard certain else { continue }
    let verdict = route.shape.match(json: text, references: { manifest.route(named: $0)?.shape })
    guard verdict == .matches else {
      fatalError("certain on bytes that \(route.tag) judges \(verdict)")
    }
  }
}
