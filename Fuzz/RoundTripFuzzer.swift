// Fuzz target `round-trip`: the bytes are a snapshot document. Whatever decodes must encode to JSON
// that decodes to the same snapshot, and encoding must be stable.
import Foundation

/// Decodes the bytes as a snapshot document and checks the encode/decode round trip.
func fuzzRoundTrip(_ data: Data) {
  guard let snapshot = try? SceneSnapshot(decoding: data, limits: .default) else { return }
  let encoded = snapshot.encoded()
  guard (try? JSONSerialization.jsonObject(with: encoded)) != nil else {
    fatalError("encoded() is not JSON")
  }
  let again: SceneSnapshot
  do {
    again = try SceneSnapshot(decoding: encoded, limits: .default)
  } catch {
    fatalError("encoded() does not decode: \(error)")
  }
  guard again == snapshot else { fatalError("decoding encoded() gives another snapshot") }
  guard again.encoded() == encoded else { fatalError("encoded() is not stable") }
}
