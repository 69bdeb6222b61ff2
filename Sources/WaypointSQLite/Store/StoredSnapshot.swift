import Foundation

/// A stored snapshot with its document, as read back.
public struct StoredSnapshot: Hashable, Sendable {
  /// A stored document, or the fact that it was too large to be read.
  public enum Document: Hashable, Sendable {
    /// The JSON document, byte for byte as stored (`Docs/SnapshotFormat.md`).
    case read(Data)
    /// The document is over the size limit the store was read with (the configuration's
    /// `limits.maxDocumentBytes`): it was not read into memory. `byteCount` is its size.
    case tooLarge(byteCount: Int, limit: Int)

    /// The document's bytes, or `nil` when it was too large to be read.
    public var data: Data? {
      switch self {
      case .read(let data): data
      case .tooLarge: nil
      }
    }
  }

  /// The snapshot's metadata.
  public var info: SnapshotInfo
  /// The document, or ``Document/tooLarge(byteCount:limit:)`` when it was not read.
  public var document: Document
}
