import Foundation
import Waypoint

extension RouteManifest {
  private struct Document: Codable {
    package var manifest: Int
    package var schemaVersion: Int
    package var routes: [Route]
  }

  private struct Header: Decodable {
    package var manifest: Int
  }

  /// The limits a manifest is read under: manifests describe every route type of an app, so they
  /// may be larger than a snapshot (4 MiB, 64 levels of nesting).
  public static let defaultLimits = InputLimits(
    maxDocumentBytes: 4 << 20, maxPayloadBytes: 4 << 20, maxNestingDepth: 64)

  /// Reads a manifest document.
  ///
  /// - Throws: ``ManifestError``: ``ManifestError/Code/tooLarge`` over the limits,
  ///   ``ManifestError/Code/malformed`` for text that is not a manifest,
  ///   ``ManifestError/Code/newerFormat``, ``ManifestError/Code/invalid``.
  public init(decoding data: Data, limits: InputLimits = RouteManifest.defaultLimits)
    throws(ManifestError)
  {
    do {
      try limits.check(data, byteLimit: limits.maxDocumentBytes)
    } catch {
      guard error.code != .malformedJSON else {
        throw .malformed("not JSON: \(error.detail ?? "")")
      }
      throw .tooLarge(error)
    }
    let decoder = JSONDecoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw .malformed(Self.explain(error, in: data))
    }
    guard header.manifest <= Self.currentFormatVersion else {
      throw .newerFormat(found: header.manifest, supported: Self.currentFormatVersion)
    }
    guard header.manifest >= 1 else {
      throw .malformed("manifest format \(header.manifest) is below 1")
    }
    let document: Document
    do {
      document = try decoder.decode(Document.self, from: data)
    } catch {
      throw .malformed(Self.explain(error, in: data))
    }
    try self.init(schemaVersion: document.schemaVersion, routes: document.routes)
  }

  /// The manifest as JSON: pretty-printed, keys sorted, tags sorted, so that it diffs well.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let document = Document(
      manifest: Self.currentFormatVersion, schemaVersion: schemaVersion, routes: routes)
    // Shapes, steps and JSON values encode without failing; an empty document is never written.
    return (try? encoder.encode(document)) ?? Data()
  }

  private static func explain(_ error: any Error, in data: Data) -> String {
    guard let error = error as? DecodingError else {
      return "not JSON: " + (JSONStructure.firstProblem(in: data)?.description ?? "not valid JSON")
    }
    let problem = SnapshotFormatError(error, in: data)
    if problem.code == .malformedJSON, let why = problem.detail { return "not JSON: \(why)" }
    return problem.description
  }
}
