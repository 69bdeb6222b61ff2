import Foundation

/// Timings in microseconds.
struct Samples {
  var values: [Double] = []

  var min: Double { values.min() ?? .nan }
  var mean: Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
  var median: Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted.count.isMultiple(of: 2)
      ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
  }

  /// The value below which `fraction` of the samples lie (nearest rank); the largest for 1.
  func percentile(_ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[Swift.min(sorted.count, Swift.max(1, rank)) - 1]
  }

  /// `0.52 s (median of 5, 0.48–0.61 s; CPU 0.40 s)`: a tool's wall times and the median of its
  /// CPU times.
  func describe(cpu: Samples) -> String {
    String(
      format: "%.2f s (median of %d, %.2f–%.2f s; CPU %.2f s)", median, values.count, min,
      values.max() ?? .nan, cpu.median)
  }

  /// The median of the per-round ratios `self[r] / baseline[r]`.
  func medianRatio(to baseline: Samples) -> Double {
    Samples(values: zip(values, baseline.values).map { $0 / $1 }).median
  }
}

/// The microseconds `body` takes.
func timed(_ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try body()
  return microseconds(clock.now - start)
}

/// `duration` in microseconds.
func microseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// The median of `count` timings of `body`, in microseconds (the navigator benchmark).
func median(_ count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
  var samples = Samples()
  for index in 0..<count { samples.values.append(try timed { try body(index) }) }
  return samples.median
}

/// Runs contenders interleaved: every round runs each contender once, in an order shuffled by a
/// seeded generator, so that a slow phase of the machine (another process, a checkpoint, the CPU's
/// clock) falls on all of them alike, and the per-round ratios compare operations that ran within
/// the same fraction of a millisecond.
struct Interleaving {
  /// One operation: `run(round)` does it once and returns the microseconds it took, timing only the
  /// operation itself (preparing its input and reading counters stay outside).
  struct Contender {
    var name: String
    var run: (Int) throws -> Double
  }

  var contenders: [Contender]
  var samples: [String: Samples] = [:]

  init(_ contenders: [Contender]) { self.contenders = contenders }

  /// Runs `rounds` rounds; the first `warmUp` are not recorded.
  mutating func run(rounds: Int, warmUp: Int, seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    var order = Array(contenders.indices)
    for round in 0..<(warmUp + rounds) {
      order.shuffle(using: &generator)
      for index in order {
        let elapsed = try contenders[index].run(round)
        if round >= warmUp {
          samples[contenders[index].name, default: Samples()].values.append(elapsed)
        }
      }
    }
  }

  subscript(name: String) -> Samples { samples[name] ?? Samples() }
}
