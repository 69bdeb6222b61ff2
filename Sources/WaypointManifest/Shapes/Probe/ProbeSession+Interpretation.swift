import Foundation
import Waypoint

/// Turning the runs of a type's `init(from:)` into a shape.
extension ProbeSession {
  /// A part that a shape cannot describe, with the reason.
  package struct Gap: Error {
    package var reason: String
  }

  package func derive(_ entry: TypeEntry) -> RouteShape {
    let name = entry.box.name
    var runs = entry.runs
    if runs.isEmpty {
      guard let run = run(entry.box, nil) else { return exhausted(name) }
      if let error = run.error {
        if run.containers.contains(where: \.readAllKeys) {
          return .opaque("no example shows the cases of \(name)")
        }
        return .opaque("no example reaches \(name), and it does not decode without one: \(error)")
      }
      runs = [run]
    }
    if let error = runs.lazy.compactMap(\.error).first {
      return .opaque("\(name) does not decode its own example: \(error)")
    }
    if let call = runs.lazy.flatMap(\.unsupported).first {
      return .opaque("\(name) decodes with \(call), which a shape cannot follow")
    }
    do {
      // One run per way of decoding (per enum case, say) is enough to find swallowed failures.
      var patterns: Set<String> = []
      for (index, run) in runs.enumerated() where patterns.insert(run.pattern).inserted {
        let sample = entry.samples.indices.contains(index) ? entry.samples[index] : nil
        try findTolerated(entry.box, run, sample: sample)
      }
      return try interpret(entry, runs.map(\.containers))
    } catch {
      return .opaque(error.reason)
    }
  }

  /// Fails each request of `run` in turn; a request whose failure the `init(from:)` swallows is
  /// marked, since the value there may be anything.
  private func findTolerated(_ box: TypeBox, _ run: ProbeRun, sample: JSONValue?) throws(Gap) {
    for event in 0..<run.eventCount {
      guard let trial = self.run(box, sample, failAt: event) else { throw Gap(reason: exhausted) }
      guard trial.error == nil else { continue }
      if run.containers.contains(where: { $0.event == event }) {
        throw Gap(reason: "\(box.name) decodes even when its container cannot be read")
      }
      for container in run.containers where container.markTolerated(event) { break }
    }
  }

  private func interpret(_ entry: TypeEntry, _ runs: [[ContainerLog]]) throws(Gap) -> RouteShape {
    let name = entry.box.name
    var kinds: Set<ContainerLog.Kind> = []
    for containers in runs {
      guard let first = containers.first else {
        throw Gap(reason: "\(name) reads nothing from its decoder")
      }
      guard first.kind == .keyed || containers.count == 1,
        containers.allSatisfy({ $0.kind == first.kind })
      else { throw Gap(reason: "\(name) reads its decoder through several kinds of container") }
      kinds.insert(first.kind)
    }
    guard kinds.count == 1, let kind = kinds.first else {
      throw Gap(reason: "\(name) reads different kinds of container for different examples")
    }
    switch kind {
    case .keyed: return try keyed(name, runs.map(Self.merged))
    case .unkeyed: return try unkeyed(name, runs.map { $0[0] })
    case .singleValue: return try singleValue(entry, runs.map { $0[0] })
    }
  }

  /// Several keyed containers opened on one decoder read the same object: one log.
  private static func merged(_ containers: [ContainerLog]) -> ContainerLog {
    guard containers.count > 1 else { return containers[0] }
    let log = ContainerLog(.keyed, event: containers[0].event)
    for container in containers {
      log.entries += container.entries
      log.readAllKeys = log.readAllKeys || container.readAllKeys
      log.toleratedEvents.formUnion(container.toleratedEvents)
    }
    return log
  }

  /// A struct (`object`) or, when `allKeys` was read, a synthesized enum (`enumeration`).
  private func keyed(_ name: String, _ logs: [ContainerLog]) throws(Gap) -> RouteShape {
    guard logs.contains(where: \.readAllKeys) else { return .object(try fields(name, logs)) }
    var payloads: [String: [ContainerLog]] = [:]
    for log in logs {
      guard log.entries.count == 1, let entry = log.entries.first, let key = entry.key,
        case .nested(let payload) = entry.action, payload.kind == .keyed,
        !log.toleratedEvents.contains(entry.event)
      else {
        throw Gap(reason: "\(name) reads the keys of its object in a way shapes cannot follow")
      }
      payloads[key, default: []].append(payload)
    }
    var cases: [RouteShape.Case] = []
    for (caseName, logs) in payloads.sorted(by: { $0.key < $1.key }) {
      cases.append(RouteShape.Case(caseName, try fields("\(name).\(caseName)", logs)))
    }
    return .enumeration(cases)
  }

  /// The fields of an object read once per example; every example must ask for the same keys.
  private func fields(_ name: String, _ logs: [ContainerLog]) throws(Gap) -> [RouteShape.Field] {
    guard let first = logs.first else { return [] }
    let keys = first.entries.compactMap(\.key)
    guard Set(keys).count == keys.count else {
      throw Gap(reason: "\(name) decodes the same key twice")
    }
    for log in logs where log.entries.compactMap(\.key) != keys {
      guard Set(log.entries.compactMap(\.key)) == Set(keys),
        log.entries.count == keys.count
      else { throw Gap(reason: "\(name) decodes different keys for different examples") }
    }
    var fields: [RouteShape.Field] = []
    for key in keys {
      var actions: [ContainerLog.Action] = []
      var tolerated = false
      for log in logs {
        for entry in log.entries where entry.key == key {
          actions.append(entry.action)
          tolerated = tolerated || log.toleratedEvents.contains(entry.event)
        }
      }
      guard !tolerated else {
        fields.append(
          .init(key, .opaque("\(name) accepts any value for \(key)"), isRequired: false))
        continue
      }
      fields.append(try field(key, of: name, actions))
    }
    return fields
  }

  private func field(_ key: String, of name: String, _ actions: [ContainerLog.Action]) throws(Gap)
    -> RouteShape.Field
  {
    var types: [TypeBox] = []
    var nested: [ContainerLog] = []
    var ifPresent = true
    for action in actions {
      switch action {
      case .decode(let type, _, let optional):
        types.append(type)
        ifPresent = ifPresent && optional
      case .nested(let log): nested.append(log)
      }
    }
    if nested.isEmpty, let type = types.first, types.allSatisfy({ $0.id == type.id }) {
      let shape = shape(of: type)
      // Read with `decode`, the key must be there, even for an `Optional` type
      // (`decode(Int?.self, forKey:)`); with `decodeIfPresent`, it may be missing.
      return ifPresent
        ? .init(key, .optional(shape), isRequired: false) : .init(key, shape, isRequired: true)
    }
    if types.isEmpty, let log = nested.first, nested.allSatisfy({ $0.kind == log.kind }) {
      let shape =
        log.kind == .keyed ? try keyed("\(name).\(key)", nested) : try unkeyed(name, nested)
      return .init(key, shape, isRequired: true)
    }
    throw Gap(reason: "\(name) decodes \(key) differently for different examples")
  }

  /// An array read element by element until `isAtEnd`, every element of one type.
  private func unkeyed(_ name: String, _ logs: [ContainerLog]) throws(Gap) -> RouteShape {
    var types: [TypeBox] = []
    var ifPresent = true
    for log in logs {
      guard log.reachedEnd, log.itemCount.map({ $0 == log.entries.count }) ?? true,
        log.toleratedEvents.isEmpty
      else { throw Gap(reason: "\(name) reads a fixed number of array elements") }
      for entry in log.entries {
        guard case .decode(let type, _, let optional) = entry.action else {
          throw Gap(reason: "\(name) reads nested containers from an array")
        }
        types.append(type)
        ifPresent = ifPresent && optional
      }
    }
    guard let type = types.first else {
      throw Gap(reason: "no example shows an element of the array that \(name) reads")
    }
    guard types.allSatisfy({ $0.id == type.id }) else {
      throw Gap(reason: "\(name) reads array elements of different types")
    }
    let element = shape(of: type)
    return .array(ifPresent ? .optional(element) : element)
  }

  /// A type that decodes one value: its shape is that value's, narrowed to the raw values seen when
  /// it is a `RawRepresentable` that refuses values it was not built from.
  private func singleValue(_ entry: TypeEntry, _ logs: [ContainerLog]) throws(Gap) -> RouteShape {
    let name = entry.box.name
    guard let first = logs.first?.entries.first,
      case .decode(let type, _, false) = first.action,
      logs.allSatisfy({ log in
        guard log.entries.count == 1, log.toleratedEvents.isEmpty,
          case .decode(let other, _, false) = log.entries[0].action
        else { return false }
        return other.id == type.id
      })
    else { throw Gap(reason: "\(name) decodes its single value in a way shapes cannot follow") }
    let inner = shape(of: type)
    guard case .leaf(let leaf) = type.standard else { return inner }
    let seen = Set(entry.samples)
    var acceptsAny = true
    for sentinel in ProbeSentinels.values(for: leaf, avoiding: seen) {
      guard let trial = run(entry.box, sentinel) else { throw Gap(reason: exhausted) }
      acceptsAny = acceptsAny && trial.error == nil
    }
    if acceptsAny { return inner }
    guard entry.box.isRawRepresentable else {
      throw Gap(reason: "\(name) accepts only some \(type.name) values, which it does not list")
    }
    // The route type's own values are its examples, one per case (what a registration gives).
    // A type inside it shows only the values those examples happen to hold: a value they miss
    // would be judged a mismatch where the app decodes it.
    guard entry.box.id == topID || entry.box.isCaseIterable else {
      throw Gap(
        reason:
          "\(name) is not CaseIterable, so the examples may not show every value it accepts (make "
          + "it CaseIterable, or register it with an example of each value)")
    }
    return try rawValues(name, leaf, entry.samples)
  }

  /// The raw values seen for a `RawRepresentable` type (all of them for a `CaseIterable` one).
  private func rawValues(_ name: String, _ leaf: RouteShape, _ samples: [JSONValue]) throws(Gap)
    -> RouteShape
  {
    guard !samples.isEmpty else { throw Gap(reason: "no example shows the values of \(name)") }
    switch leaf {
    case .string:
      var values: Set<String> = []
      for case .string(let value) in samples { values.insert(value) }
      return .stringEnum(values.sorted())
    case .integer:
      var values: Set<Int64> = []
      for sample in samples {
        switch sample {
        case .integer(let value): values.insert(value)
        case .unsignedInteger(let value):
          guard let value = Int64(exactly: value) else {
            throw Gap(reason: "\(name) has raw values beyond Int64")
          }
          values.insert(value)
        default: throw Gap(reason: "\(name) has raw values that are not integers")
        }
      }
      return .integerEnum(values.sorted())
    default:
      throw Gap(reason: "\(name) accepts only some values, which shapes cannot list")
    }
  }

  private var exhausted: String { "the shape probe ran out of its budget of runs" }

  private func exhausted(_ name: String) -> RouteShape {
    .opaque("\(name): \(exhausted)")
  }
}
