// Fuzz target `stored-form`: the bytes are a schema-5 row's `document` column, which migration 6
// and read-only reads of a schema-5 store expand (StoredForm). Expanding them must not trap, must
// stay within the limit, must only add bytes to the document written compact (the expansion writes
// it without the blanks between tokens a hostile row may hold), and must be done at once (the
// expansion has nothing left to expand). When the bytes decode as a snapshot, its document must be
// its own expansion.
import Foundation

func fuzzStoredForm(_ data: Data) {
  let limit = InputLimits.default.maxDocumentBytes
  let bytes = [UInt8](data)
  if let expanded = StoredForm.expanded(bytes, limit: limit) {
    guard expanded.count <= limit else { fatalError("expanded past the limit: \(expanded.count)") }
    let compact =
      (try? JSONNode.scanning(bytes, maxDepth: .max)).map { Array($0.jsonText.utf8) } ?? bytes
    guard expanded.count > compact.count else { fatalError("expanding added no bytes") }
    guard StoredForm.expanded(expanded, limit: limit) == nil else {
      fatalError("expanding the expansion changed it")
    }
  }
  guard let snapshot = try? SceneSnapshot(decoding: data) else { return }
  guard StoredForm.expanded([UInt8](snapshot.encoded()), limit: .max) == nil else {
    fatalError("a document as the writer writes it was expanded")
  }
}
