// Fuzz target `round-trip`: the bytes are a snapshot document. Whatever decodes must encode to JSON
// that decodes to the same snapshot, encoding must be stable, byte for byte what JSONEncoder writes
// (`.sortedKeys`, `.withoutEscapingSlashes`: its key order too, the oracle of the tests), and the
// save time must lie where the encoding says.
import Foundation

/// Decodes the bytes as a snapshot document and checks the encode/decode round trip.
func fuzzRoundTrip(_ data: Data) {
  guard let snapshot = try? SceneSnapshot(decoding: data, limits: .default) else { return }
  let encoded = snapshot.encoded()
  let located = snapshot.encodedLocatingSavedAt()
  guard located.document == encoded, located.savedAt.upperBound < encoded.count,
    encoded[located.savedAt] == Data(ISO8601Seconds.format(snapshot.metadata.savedAt).utf8)
  else { fatalError("the save time is not where the encoding says") }
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
