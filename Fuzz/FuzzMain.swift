// The libFuzzer entry point of every fuzz target. Scripts/fuzz builds one binary from the package's
// sources and the files of this folder, and WAYPOINT_FUZZ_TARGET picks the target.
import Foundation

/// The fuzz targets, by name: each takes the fuzzer's bytes and traps only on a real defect.
/// libFuzzer calls the entry point from one thread.
nonisolated(unsafe) let fuzzTargets: [String: (Data) -> Void] = [
  "restore": fuzzRestore, "store": fuzzStore, "import-line": fuzzImportLine,
  "redactor": fuzzRedactor, "arguments": fuzzArguments, "round-trip": fuzzRoundTrip,
  "prediction": fuzzPrediction, "stored-form": fuzzStoredForm, "manifest": fuzzManifest,
]

/// The target named by WAYPOINT_FUZZ_TARGET; the process exits with status 2 for any other name.
nonisolated(unsafe) let selectedTarget: (Data) -> Void = {
  let name = ProcessInfo.processInfo.environment["WAYPOINT_FUZZ_TARGET"] ?? ""
  guard let target = fuzzTargets[name] else {
    let names = fuzzTargets.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("WAYPOINT_FUZZ_TARGET must be one of: \(names)\n".utf8))
    exit(2)
  }
  return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  selectedTarget(Data(bytes: start, count: count))
  return 0
}
