// Fuzz target `round-trip`: the bytes are a snapshot document. Whatever decodes must encode to JSON
// that decodes to the same snapshot, encoding must be stable, byte for byte what JSONEncoder writes
// (`.sortedKeys`, `.withoutEscapingSlashes`: its key order too, the oracle of the tests); an
// encoding into a buffer kept from one input to the next gives a fresh encoding's bytes.
import Foundation

/// The buffer a store keeps for its saves' documents, kept here from one input to the next too:
/// an encoding into it must give a fresh encoding's bytes whatever it held before.
nonisolated(unsafe) let keptBuffer = DocumentBuffer()

/// Decodes the bytes as a snapshot document and checks the encode/decode round trip.
func fuzzRoundTrip(_ data: Data) {
  guard let snapshot = try? SceneSnapshot(decoding: data, limits: .default) else { return }
  let encoded = snapshot.encoded()
  for storedForm in [false, true] {
    let fresh = snapshot.encodedLocatingSavedAt(storedForm: storedForm)
    let kept = snapshot.encodeLocatingSavedAt(storedForm: storedForm, into: keptBuffer)
    guard keptBuffer.withBytes({ Data($0) }) == fresh.document, kept.savedAt == fresh.savedAt,
      kept.jsonCount == fresh.jsonCount
    else { fatalError("an encoding into a kept buffer differs from a fresh one") }
  }
  keptBuffer.release(above: 64 * 1024)
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
  // Before 1582-10-15 Foundation formats dates in the Julian calendar, the format in ISO 8601's
  // proleptic Gregorian one (SnapshotFormat.md, `savedAt`).
  let gregorianSince: TimeInterval = -12_219_292_800
  guard
    snapshot.metadata.savedAt.timeIntervalSince1970 < gregorianSince
      || snapshot.encodedWithJSONEncoder() == encoded
  else {
    fatalError("encoded() is not what JSONEncoder writes")
  }
}
