/// "Did you mean" for a misspelt command or option.
enum Suggestions {
  /// The candidate closest to `word`, when it is close enough to be a misspelling: at most two
  /// edits, and fewer than half the word's length.
  static func closest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
    let limit = min(2, (word.count - 1) / 2)
    return best.distance <= limit ? best.candidate : nil
  }

  /// ` (did you mean 'x'?)`, or nothing.
  static func didYouMean(_ word: String, in candidates: [String]) -> String {
    closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
  /// two neighbouring characters (`shwo` is one edit from `show`).
  static func editDistance(_ left: String, _ right: String) -> Int {
    let left = Array(left)
    let right = Array(right)
    guard !left.isEmpty else { return right.count }
    guard !right.isEmpty else { return left.count }
    var table = [[Int]](
      repeating: [Int](repeating: 0, count: right.count + 1), count: left.count + 1)
    for row in 0...left.count { table[row][0] = row }
    for column in 0...right.count { table[0][column] = column }
    for row in 1...left.count {
      for column in 1...right.count {
        let cost = left[row - 1] == right[column - 1] ? 0 : 1
        var best = min(
          table[row - 1][column] + 1, table[row][column - 1] + 1,
          table[row - 1][column - 1] + cost)
        if row > 1, column > 1, left[row - 1] == right[column - 2],
          left[row - 2] == right[column - 1]
        {
          best = min(best, table[row - 2][column - 2] + 1)
        }
        table[row][column] = best
      }
    }
    return table[left.count][right.count]
  }
}
