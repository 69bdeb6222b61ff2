// Fuzz target `stored-form`: the bytes are a row's `document` column. Expanding them
// (StoredDocument) must not trap, must stay within the size limit or report the size exactly,
// must only add bytes, must be done at once (expanding the expansion changes nothing), and the
// stored form of the expansion must expand back to it. When the bytes decode as a snapshot, the
// writer's stored form of that snapshot must expand to its document.
import Foundation

func fuzzStoredForm(_ data: Data) {
  let limits = InputLimits.default
  switch StoredDocument.expanded(data, limits: limits) {
  case .tooLarge(let byteCount):
    guard byteCount > limits.maxDocumentBytes else {
      fatalError("too large at \(byteCount) bytes, within the limit")
    }
  case .document(let document):
    guard document.count <= limits.maxDocumentBytes || document == data else {
      fatalError("expanded past the limit: \(document.count) bytes")
    }
    guard document.count >= data.count else { fatalError("expanding removed bytes") }
    guard StoredDocument.expanded(document, limits: limits) == .document(document) else {
      fatalError("expanding the expansion changed it")
    }
    let stored = StoredDocument.elidingRepeatedTags(document, limits: limits)
    guard StoredDocument.expanded(stored, limits: limits) == .document(document) else {
      fatalError("the stored form of the expansion does not expand back to it")
    }
    guard let snapshot = try? SceneSnapshot(decoding: document, limits: limits) else { return }
    let written = snapshot.encodedLocatingSavedAt(storedForm: true)
    let json = snapshot.encoded()
    guard written.jsonCount == json.count,
      StoredDocument.expanded(written.document, limits: .init(maxDocumentBytes: .max))
        == .document(json)
    else { fatalError("the writer's stored form does not expand to its document") }
  }
}
