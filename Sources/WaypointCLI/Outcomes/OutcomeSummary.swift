import Foundation
import Waypoint

/// The tally of restore outcome records behind `waypoint outcomes summarize`: per app build, its
/// restores and how many ended partial or at the root, and per (tag, reason) of dropped routes how
/// many restores dropped at least one such route and how many routes they dropped.
///
/// Memory is bounded whatever the input: at most ``maxBuilds`` builds and ``maxPairsPerBuild``
/// (tag, reason) pairs per build are tallied apart, the first ones met; the records of later
/// builds are tallied together as one folded build, and later pairs of a build in its one
/// `(other)` row (a restore counts there once however many folded pairs it dropped).
struct OutcomeSummary {
  /// The most builds tallied apart.
  static let maxBuilds = 200
  /// The most (tag, reason) pairs tallied apart in a build.
  static let maxPairsPerBuild = 1000
  /// The most (tag, reason) pairs tallied apart over all builds.
  static let maxPairs = 10_000

  /// A (tag, reason) pair of dropped routes.
  struct Pair: Hashable {
    var tag: String?
    var reason: String?
  }

  /// The tally of one pair in one build.
  struct PairTally {
    var pair: Pair
    /// Records of the build that dropped at least one route of the pair.
    var restores = 0
    /// Routes of the pair dropped, over those records (saturating).
    var routes = 0
  }

  /// The tally of one build.
  struct BuildTally {
    /// The build's name; `nil` for records without one.
    var name: String?
    /// Whether this is the tally of the builds met after ``maxBuilds``.
    var isFolded = false
    var restores = 0
    var partial = 0
    var root = 0
    var pairs: [PairTally] = []
    var index: [Pair: Int] = [:]
    /// The records that dropped routes of pairs met after the build's pairs were full.
    var otherRestores = 0
    /// Their routes of such pairs.
    var otherRoutes = 0
  }

  private(set) var builds: [BuildTally] = []
  private var buildIndex: [String?: Int] = [:]
  private var foldedBuild: Int?
  private var pairCount = 0
  private(set) var records = 0
  /// The pairs the current record dropped, by index in its build (-1: the other row).
  private var seen: [Int] = []

  /// Adds a record.
  mutating func add(_ record: RestoreOutcome) {
    records += 1
    let build = buildSlot(record.appBuild)
    builds[build].restores += 1
    switch record.outcome {
    case .partial: builds[build].partial += 1
    case .root: builds[build].root += 1
    case .restored: break
    }
    seen.removeAll(keepingCapacity: true)
    for item in record.items where item.kind == .dropped {
      let pair = Pair(tag: item.tag, reason: item.reason)
      var slot = builds[build].index[pair] ?? -1
      if slot < 0, builds[build].pairs.count < Self.maxPairsPerBuild, pairCount < Self.maxPairs {
        slot = builds[build].pairs.count
        builds[build].index[pair] = slot
        builds[build].pairs.append(PairTally(pair: pair))
        pairCount += 1
      }
      let first = !seen.contains(slot)
      if first { seen.append(slot) }
      if slot >= 0 {
        if first { builds[build].pairs[slot].restores += 1 }
        builds[build].pairs[slot].routes = Self.sum(builds[build].pairs[slot].routes, item.count)
      } else {
        if first { builds[build].otherRestores += 1 }
        builds[build].otherRoutes = Self.sum(builds[build].otherRoutes, item.count)
      }
    }
  }

  /// The index of the tally of `name`'s build, made at its first record.
  private mutating func buildSlot(_ name: String?) -> Int {
    if let slot = buildIndex[name] { return slot }
    guard buildIndex.count < Self.maxBuilds else {
      if let foldedBuild { return foldedBuild }
      foldedBuild = builds.count
      builds.append(BuildTally(name: nil, isFolded: true))
      return builds.count - 1
    }
    buildIndex[name] = builds.count
    builds.append(BuildTally(name: name))
    return builds.count - 1
  }

  private static func sum(_ a: Int, _ b: Int) -> Int {
    let (total, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : total
  }

  /// The builds in their order (``precedes(_:_:)``), the folded builds last.
  var orderedBuilds: [BuildTally] {
    builds.filter { !$0.isFolded }.sorted { Self.precedes($0.name, $1.name) }
      + builds.filter(\.isFolded)
  }

  // MARK: Order of builds

  /// Whether build `a` comes before build `b`: a record without a build first; then by the
  /// versions in the names, a version being numbers joined by dots (`3.0.1`, `310`), compared
  /// one by one as numbers, version after version, a version that starts another first
  /// (`2.0 (200)` < `2.0.1 (201)` < `10.0 (1000)`, `2` < `2.1`); names with the same versions by
  /// their UTF-8 bytes. Docs/Outcomes.md's query orders builds by the same rule.
  static func precedes(_ a: String?, _ b: String?) -> Bool {
    guard let a else { return b != nil }
    guard let b else { return false }
    let left = versions(in: a)
    let right = versions(in: b)
    for (x, y) in zip(left, right) where !x.elementsEqual(y) {
      return precedes(x, y)
    }
    if left.count != right.count { return left.count < right.count }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// Whether version `x` comes before version `y`: number by number, a prefix first.
  private static func precedes(_ x: [ArraySlice<UInt8>], _ y: [ArraySlice<UInt8>]) -> Bool {
    for (m, n) in zip(x, y) where m != n {
      return m.count != n.count ? m.count < n.count : m.lexicographicallyPrecedes(n)
    }
    return x.count < y.count
  }

  /// The versions in `name`: each run of ASCII digits and dots that starts and ends with a digit,
  /// as its numbers, without leading zeros (`007` is `7`): compared by length then digit by digit,
  /// they compare as the numbers they write, however many digits.
  static func versions(in name: String) -> [[ArraySlice<UInt8>]] {
    let bytes = Array(name.utf8)
    func isDigit(_ index: Int) -> Bool {
      index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39
    }
    var versions: [[ArraySlice<UInt8>]] = []
    var index = 0
    while index < bytes.count {
      guard isDigit(index) else {
        index += 1
        continue
      }
      var numbers: [ArraySlice<UInt8>] = []
      while true {
        var end = index
        while isDigit(end) { end += 1 }
        var first = index
        while first < end - 1, bytes[first] == 0x30 { first += 1 }
        numbers.append(bytes[first..<end])
        index = end
        guard index < bytes.count, bytes[index] == UInt8(ascii: "."), isDigit(index + 1) else {
          break
        }
        index += 1
      }
      versions.append(numbers)
    }
    return versions
  }
}
