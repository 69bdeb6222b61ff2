/// "Did you mean" for a misspelt command, option or scene id, with bounded work: a suggestion is
/// a courtesy and must never cost the user time, whatever the word and however many candidates.
enum Suggestions {
  /// The candidate closest to `word`, when it is close enough to be a misspelling: at most two
  /// edits, and fewer than half the word's length (see ``Search``).
  static func closest(to word: String, in candidates: [String]) -> String? {
    var search = Search(word: word)
    guard search.isPossible else { return nil }
    for candidate in candidates where !search.consider(candidate) { break }
    return search.best
  }

  /// ` (did you mean 'x'?)`, or nothing.
  static func didYouMean(_ word: String, in candidates: [String]) -> String {
    phrase(closest(to: word, in: candidates))
  }

  /// ` (did you mean 'x'?)` for a suggestion, or nothing.
  static func phrase(_ suggestion: String?) -> String {
    suggestion.map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// The optimal string alignment distance over Unicode scalars: insertions, deletions,
  /// substitutions and swaps of two neighbouring characters (`shwo` is one edit from `show`), or
  /// `nil` when it is over `limit` (by default, the longer length: no limit).
  static func editDistance(_ left: String, _ right: String, limit: Int? = nil) -> Int? {
    let limit = limit ?? max(left.unicodeScalars.count, right.unicodeScalars.count)
    var search = Search(word: left, limit: limit)
    return search.distance(to: right)
  }

  /// One search for the candidate closest to a word, fed candidates one at a time, with bounded
  /// work:
  ///
  /// - a word longer than ``maxWordLength`` scalars gets no suggestion and costs nothing;
  /// - a candidate whose length differs from the word's by more than the edit limit is skipped
  ///   without computing anything (``lengths`` lets a store skip them before reading them);
  /// - a distance is computed only in the band of cells within the limit of the diagonal, and
  ///   stops at the first row whose every cell is over the limit, so a candidate costs at most
  ///   `(2 × limit + 1) × (word length + 1)` cells;
  /// - the search stops at the first candidate one edit away (none can be closer), after
  ///   ``maxCandidates`` candidates, or once ``maxCells`` cells were computed, keeping the best
  ///   found so far.
  struct Search {
    /// The longest word a suggestion is looked for, in Unicode scalars.
    static let maxWordLength = 128
    /// The most candidates one search compares.
    static let maxCandidates = 500_000
    /// The most distance cells one search computes.
    static let maxCells = 5_000_000

    private let word: [Unicode.Scalar]
    /// The most edits a suggestion may be away: at most two, and fewer than half the word.
    let limit: Int
    /// Candidates compared so far (those of a possible length).
    private(set) var candidates = 0
    /// Distance cells computed so far.
    private(set) var cells = 0
    /// The closest candidate so far.
    private(set) var best: String?
    private var bestDistance = Int.max
    private var other: [Unicode.Scalar] = []
    private var rows: [Int] = []
    /// How often each bucket of scalars (the value modulo 64) occurs in the word.
    private var counts = [Int](repeating: 0, count: 64)

    init(word: String, limit: Int? = nil) {
      let scalars = Array(word.unicodeScalars.prefix(Self.maxWordLength + 1))
      self.word = scalars
      self.limit = limit ?? min(2, (scalars.count - 1) / 2)
      for scalar in scalars { counts[Int(scalar.value & 63)] += 1 }
    }

    /// Whether any candidate could be suggested: the word is short enough, and long enough for a
    /// misspelling to be told from another word.
    var isPossible: Bool {
      word.count <= Self.maxWordLength && limit >= 1
    }

    /// The lengths, in Unicode scalars, a suggestion can have; `nil` when none is possible.
    var lengths: ClosedRange<Int>? {
      isPossible ? max(1, word.count - limit)...(word.count + limit) : nil
    }

    /// Whether the search is over: a candidate one edit away was found, or the work is spent.
    var isFinished: Bool {
      !isPossible || bestDistance <= 1 || candidates >= Self.maxCandidates
        || cells >= Self.maxCells
    }

    /// Compares one candidate. Returns `false` when the search is over and the caller can stop.
    mutating func consider(_ candidate: String) -> Bool {
      guard !isFinished else { return false }
      if let distance = distance(to: candidate), distance >= 1, distance < bestDistance {
        bestDistance = distance
        best = candidate
      }
      return !isFinished
    }

    /// The distance from the word to `candidate`, or `nil` when it is over the limit.
    mutating func distance(to candidate: String) -> Int? {
      guard word.count <= Self.maxWordLength else { return nil }
      other.removeAll(keepingCapacity: true)
      for scalar in candidate.unicodeScalars {
        other.append(scalar)
        if other.count > word.count + limit { return nil }
      }
      guard other.count >= word.count - limit else { return nil }
      candidates += 1
      // A cheap bound first: an insertion or a deletion changes the counts of characters by 1, a
      // substitution by 2, a swap not at all, so counts further apart than 2 × limit (counted in
      // 64 buckets, which only brings them closer) rule the candidate out.
      // `counts` holds the word's counts between calls: each scalar of the candidate takes one
      // away (bringing its bucket closer when the word had one left, else further), and is then
      // given back.
      let apart = counts.withUnsafeMutableBufferPointer { counts in
        other.withUnsafeBufferPointer { other in
          var apart = word.count
          for scalar in other {
            let bucket = Int(scalar.value & 63)
            apart += counts[bucket] > 0 ? -1 : 1
            counts[bucket] -= 1
          }
          for scalar in other { counts[Int(scalar.value & 63)] += 1 }
          return apart
        }
      }
      guard apart <= 2 * limit else { return nil }
      // A common prefix and suffix cost no edit: only what lies between them is aligned.
      var start = 0
      while start < word.count, start < other.count, word[start] == other[start] { start += 1 }
      var wordEnd = word.count
      var otherEnd = other.count
      while wordEnd > start, otherEnd > start, word[wordEnd - 1] == other[otherEnd - 1] {
        wordEnd -= 1
        otherEnd -= 1
      }
      let n = wordEnd - start
      let m = otherEnd - start
      guard n > 0, m > 0 else { return max(n, m) <= limit ? max(n, m) : nil }
      let width = m + 1
      if rows.count < 3 * width { rows = [Int](repeating: 0, count: 3 * width) }
      var computed = 0
      let distance = rows.withUnsafeMutableBufferPointer { rows in
        word.withUnsafeBufferPointer { word in
          other.withUnsafeBufferPointer { other in
            Self.bandedDistance(
              UnsafeBufferPointer(rebasing: word[start..<wordEnd]),
              UnsafeBufferPointer(rebasing: other[start..<otherEnd]), limit: limit,
              rows: rows, cells: &computed)
          }
        }
      }
      cells += computed
      return distance
    }

    /// The optimal string alignment distance of `left` and `right` (both non-empty, lengths
    /// within `limit` of each other), computing only the cells within `limit` of the diagonal and
    /// stopping at the first row whose cells are all over it. `rows` holds three rows of
    /// `right.count + 1` cells: two rows back for a swap of neighbours, one back, and this one.
    private static func bandedDistance(
      _ left: UnsafeBufferPointer<Unicode.Scalar>, _ right: UnsafeBufferPointer<Unicode.Scalar>,
      limit: Int, rows: UnsafeMutableBufferPointer<Int>, cells: inout Int
    ) -> Int? {
      let n = left.count
      let m = right.count
      let width = m + 1
      let over = limit + 1
      // Row 0 lives at offset 1 × width, as far as the band of row 1 reads it.
      for column in 0...min(m, limit + 1) { rows[width + column] = column <= limit ? column : over }
      // Rows rotate through three slots: row r lives at slot (r + 1) % 3.
      var beforePrevious = 0
      var previous = width
      var current = 2 * width
      for row in 1...n {
        if row > 1 { (beforePrevious, previous, current) = (previous, current, beforePrevious) }
        let low = max(1, row - limit)
        let high = min(m, row + limit)
        // Only the band is computed; the cells just outside it, which the band reads, are over.
        rows[current] = row <= limit ? row : over
        if low > 1 { rows[current + low - 1] = over }
        var rowMinimum = low == 1 ? rows[current] : over
        if low <= high {
          for column in low...high {
            cells += 1
            let cost = left[row - 1] == right[column - 1] ? 0 : 1
            var value = min(
              rows[previous + column] + 1, rows[current + column - 1] + 1,
              rows[previous + column - 1] + cost)
            if row > 1, column > 1, left[row - 1] == right[column - 2],
              left[row - 2] == right[column - 1]
            {
              value = min(value, rows[beforePrevious + column - 2] + 1)
            }
            value = min(value, over)
            rows[current + column] = value
            rowMinimum = min(rowMinimum, value)
          }
        }
        if high + 1 <= m { rows[current + high + 1] = over }
        if rowMinimum > limit { return nil }
      }
      let distance = rows[((n + 1) % 3) * width + m]
      return distance <= limit ? distance : nil
    }
  }
}
