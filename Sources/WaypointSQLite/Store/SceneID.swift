/// The one rule for scene identifiers, applied by every call that writes a scene's snapshots
/// (``SnapshotStore/save(_:scene:)``, imports) and by the `waypoint` tool.
///
/// A scene id is any string of 1 to ``maxByteCount`` UTF-8 bytes without control characters
/// (U+0000–U+001F, U+007F–U+009F). `UISceneSession.persistentIdentifier` and the names apps give
/// their scenes always qualify. Ids are compared as their UTF-8 bytes, as SQLite compares them:
/// "café" written with a combining accent (NFD) and with a precomposed "é" (NFC) are two scenes.
///
/// Reading calls (restore, history) accept any string and simply find no snapshot for an id that
/// could never have been saved.
public enum SceneID {
  /// The longest scene id, in UTF-8 bytes.
  public static let maxByteCount = 1024

  /// Why `id` cannot name a scene, or `nil` when it can.
  public static func problem(with id: String) -> String? {
    let bytes = id.utf8.count
    if bytes == 0 { return "a scene id cannot be empty" }
    if bytes > maxByteCount {
      return "a scene id is at most \(maxByteCount) UTF-8 bytes (this one has \(bytes))"
    }
    // Printable ASCII, as nearly every id is, needs no look at its scalars.
    let printable = id.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
    if printable == true { return nil }
    if let control = id.unicodeScalars.first(where: isControl) {
      let hex = String(control.value, radix: 16, uppercase: true)
      let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      return "a scene id cannot contain control characters (U+\(padded))"
    }
    return nil
  }

  /// Whether two scene ids name the same scene: byte-wise equality, as in the store's index.
  public static func same(_ a: String, _ b: String) -> Bool {
    a.utf8.elementsEqual(b.utf8)
  }

  /// A key for sets and dictionaries of scene ids that tells ids apart as ``same(_:_:)`` does
  /// (Swift's `String` hashing and `==` merge canonically equivalent ids: "café" in NFC and NFD).
  package static func key(_ id: String) -> [UInt8] { Array(id.utf8) }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
