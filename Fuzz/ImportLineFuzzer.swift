// Fuzz target `import-line`: the bytes are one line of `waypoint import`'s JSON Lines. A line that
// reads must write back (as `export` writes it) to a line that reads the same.
import Foundation

/// Reads the bytes as an import line, and checks the export/import round trip of what it read.
func fuzzImportLine(_ data: Data) {
  guard let first = try? SnapshotLine.parse(data, limits: .default) else { return }
  // The first write fixes what a line may leave open (a quarantine without a time); from then on
  // the round trip must be exact.
  let second = reexported(first)
  let third = reexported(second)
  guard second.scene == third.scene, second.snapshot == third.snapshot,
    second.quarantine == third.quarantine
  else {
    fatalError("an exported line reads back differently")
  }
}

/// The line `export` writes for `parsed`, read back.
private func reexported(_ parsed: SnapshotLine.Parsed) -> SnapshotLine.Parsed {
  let line = SnapshotLine.encode(
    id: 1, scene: parsed.scene, savedAt: parsed.snapshot.metadata.savedAt,
    quarantine: parsed.quarantine, document: parsed.snapshot.encoded())
  do {
    return try SnapshotLine.parse(line.dropLast(), limits: .default)
  } catch {
    fatalError("a line written by export does not read back: \(error.message)")
  }
}
