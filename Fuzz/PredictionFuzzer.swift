// Fuzz target `prediction`: what `waypoint validate` predicts of a snapshot document from the
// route manifest (RouteManifest.predict, the restore's own walk) is what the real restore does with
// the app's types, under every policy: the same outcome and dropped routes, or, where only the app
// can judge a route, nothing the restore contradicts (RestoreAgreement, the tests' oracle).
// Built by Scripts/fuzz with the package's sources; `registry` and `manifest` are the `restore`
// target's.
import Foundation

/// The bytes as a snapshot document, predicted and restored.
func fuzzPrediction(_ data: Data) {
  for policy in RestorePolicy.allCases {
    let predicted = manifest.predict(encoded: data, policy: policy)
    let restored = Restorer(registry: registry, policy: policy).restore(encoded: data)
    // None of the fuzzed types holds a `[String: Value]`: every path is in a fixed order.
    let problem =
      predicted.hasUndetermined
      ? RestoreAgreement.consistency(predicted, restored, policy) { _ in false }
      : RestoreAgreement.agreement(predicted, restored) { _ in false }
    if let problem {
      fatalError("the prediction and the restore disagree under \(policy): \(problem)")
    }
  }
}
