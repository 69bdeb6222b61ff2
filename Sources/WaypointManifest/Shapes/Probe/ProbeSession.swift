import Foundation
import Waypoint

/// Derives the shape of one route type in two passes: ``collect(_:_:depth:)`` gathers, for every
/// type the examples reach, the JSON it has there and what its `init(from:)` asked for; then
/// ``shape(of:isTop:)`` describes each type from all of its samples at once, so that an enum's
/// cases are the union over every place it occurs.
///
/// Bounded everywhere: type nesting, data nesting, stand-in construction and the total number of
/// `init(from:)` runs all have limits, past which the part becomes ``RouteShape/opaque(_:)``.
package final class ProbeSession {
  package static let maxTypeDepth = 48
  package static let maxDataDepth = 256
  package static let maxPlaceholderDepth = 16
  package static let runBudget = 20_000

  /// What the probe knows about one type.
  package final class TypeEntry {
    package let box: TypeBox
    /// The distinct JSON values of the type in the examples, with the run of each.
    package var samples: [JSONValue] = []
    package var runs: [ProbeRun] = []
    package var seen: Set<JSONValue> = []
    package init(box: TypeBox) { self.box = box }
  }

  package let references: [ObjectIdentifier: String]
  /// Example values of the other registered route types, to stand in for them when a type is probed
  /// without data (a struct that holds a registered enum).
  package let referenceSamples: [ObjectIdentifier: [JSONValue]]
  package let topID: ObjectIdentifier
  private var entries: [ObjectIdentifier: TypeEntry] = [:]
  private var shapes: [ObjectIdentifier: RouteShape] = [:]
  private var deriving: [ObjectIdentifier] = []
  private var placeholderDepth = 0
  private(set) var runsLeft = ProbeSession.runBudget
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  package init(
    top: TypeBox, references: [ObjectIdentifier: String],
    referenceSamples: [ObjectIdentifier: [JSONValue]] = [:]
  ) {
    self.topID = top.id
    self.references = references
    self.referenceSamples = referenceSamples
  }

  /// The probe's entry for a type, created on first use with the samples of its cases when it is
  /// `CaseIterable`.
  package func entry(for box: TypeBox) -> TypeEntry {
    if let entry = entries[box.id] { return entry }
    let entry = TypeEntry(box: box)
    entries[box.id] = entry
    for sample in box.caseSamples() { collect(box, sample, depth: 0) }
    return entry
  }

  /// First pass: records `sample` as a value of `box`'s type and follows what its `init(from:)`
  /// requested into the nested types.
  package func collect(_ box: TypeBox, _ sample: JSONValue, depth: Int) {
    guard depth < Self.maxDataDepth else { return }
    switch box.standard {
    case .leaf, .unsupported:
      return
    case .optional(let wrapped):
      if sample != .null { collect(wrapped, sample, depth: depth + 1) }
    case .array(let element):
      guard case .array(let items) = sample else { return }
      for item in items { collect(element, item, depth: depth + 1) }
    case .dictionary(let value):
      guard case .object(let members) = sample else { return }
      for (_, member) in members.sorted(by: { $0.key < $1.key }) {
        collect(value, member, depth: depth + 1)
      }
    case nil:
      if box.id != topID && references[box.id] != nil { return }
      let entry = entry(for: box)
      guard !entry.seen.contains(sample), let run = run(box, sample) else { return }
      entry.seen.insert(sample)
      entry.samples.append(sample)
      entry.runs.append(run)
      for container in run.containers {
        for (type, nested) in container.requestedSamples { collect(type, nested, depth: depth + 1) }
      }
    }
  }

  /// Second pass: the shape of a type. `isTop` inlines the route type itself even when
  /// `references` names it; elsewhere a referenced type is a ``RouteShape/reference(tag:)``.
  package func shape(of box: TypeBox, isTop: Bool = false) -> RouteShape {
    switch box.standard {
    case .leaf(let shape): return shape
    case .optional(let wrapped): return .optional(shape(of: wrapped))
    case .array(let element): return .array(shape(of: element))
    case .dictionary(let value): return .dictionary(shape(of: value))
    case .unsupported(let reason): return .opaque(reason)
    case nil: break
    }
    if !isTop, let tag = references[box.id] { return .reference(tag: tag) }
    if let known = shapes[box.id] { return known }
    if deriving.contains(box.id) {
      return .opaque("\(box.name) contains itself; give its tag in references to describe it")
    }
    guard deriving.count < Self.maxTypeDepth else {
      return .opaque("\(box.name) is nested more than \(Self.maxTypeDepth) types deep")
    }
    deriving.append(box.id)
    defer { deriving.removeLast() }
    let result = derive(entry(for: box))
    shapes[box.id] = result
    return result
  }

  /// One counted run of a type's `init(from:)`; `nil` once the budget is spent.
  package func run(_ box: TypeBox, _ sample: JSONValue?, failAt: Int? = nil) -> ProbeRun? {
    guard runsLeft > 0 else { return nil }
    runsLeft -= 1
    return box.run(self, sample, failAt)
  }

  /// A nested value decoded by `JSONDecoder` from an example's JSON.
  package func materialize<T: Decodable>(_ type: T.Type, from sample: JSONValue) throws -> T {
    try decoder.decode(type, from: encoder.encode(sample))
  }

  /// A value to hand back when probing without data: a standard stand-in, a value seen elsewhere in
  /// the examples, the first case of a `CaseIterable` type, or the type probed without data itself.
  package func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
    if let value = StandardTypes.placeholder(type) { return value }
    for sample in entries[ObjectIdentifier(type)]?.samples.prefix(1) ?? [] {
      if let value = try? materialize(type, from: sample) { return value }
    }
    for sample in referenceSamples[ObjectIdentifier(type)]?.prefix(4) ?? [] {
      if let value = try? materialize(type, from: sample) { return value }
    }
    if let iterable = type as? any CaseIterable.Type,
      let value = StandardTypes.firstCase(of: iterable) as? T
    {
      return value
    }
    guard placeholderDepth < Self.maxPlaceholderDepth, runsLeft > 0 else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "no stand-in value for \(type)"))
    }
    runsLeft -= 1
    placeholderDepth += 1
    defer { placeholderDepth -= 1 }
    return try T(
      from: ProbeDecoder(run: ProbeRun(session: self, failAt: nil), value: nil, codingPath: []))
  }

  /// The samples seen for a type.
  package func samples(of box: TypeBox) -> [JSONValue] {
    entries[box.id]?.samples ?? []
  }
}
