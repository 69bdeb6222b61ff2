import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

/// "Did you mean" must never cost the user time: the work of every suggestion is bounded, whatever
/// the word and however many scenes the store holds.
@Suite("Suggestions")
struct SuggestionTests {
  let directory = TemporaryDirectory()

  /// The full-matrix optimal string alignment distance over Unicode scalars: the oracle the
  /// banded, early-exiting distance is checked against.
  static func fullDistance(_ left: String, _ right: String) -> Int {
    let left = Array(left.unicodeScalars)
    let right = Array(right.unicodeScalars)
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

  @Test(
    "the banded distance equals the full one within the limit, and is nil beyond it",
    arguments: [1, 2] as [UInt64])
  func bandedAgreesWithFull(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    let alphabet = Array("abcé")
    var compared = 0
    var within = 0
    for iteration in 0..<10_000 {
      let left = String(
        (0..<Int.random(in: 0...7, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator) ?? "a"
        })
      let right = String(
        (0..<Int.random(in: 0...7, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator) ?? "a"
        })
      for limit in 1...2 {
        let full = Self.fullDistance(left, right)
        let banded = Suggestions.editDistance(left, right, limit: limit)
        #expect(
          banded == (full <= limit ? full : nil),
          "seed \(seed) iteration \(iteration): \(left) / \(right), limit \(limit)")
        compared += 1
        if full <= limit { within += 1 }
      }
    }
    // The comparison covered both outcomes (the test could fail either way).
    #expect(within > 500 && compared - within > 500, "\(within) of \(compared) within the limit")
  }

  @Test(
    "one candidate costs at most (2 × limit + 1) × (length + 1) cells",
    arguments: [
      String(repeating: "ba", count: 60), String(repeating: "ab", count: 59) + "ax",
      "x" + String(repeating: "ab", count: 60).dropFirst(),
    ])
  func cellsPerCandidate(candidate: String) {
    let word = String(repeating: "ab", count: 60)
    var search = Suggestions.Search(word: word)
    #expect(search.limit == 2)
    _ = search.distance(to: candidate)
    #expect(search.cells <= 5 * (word.count + 1), "\(search.cells) cells for \(candidate)")
  }

  @Test(
    "a word over the length cap costs no work and gets no suggestion",
    arguments: [129, 5_000])
  func longWord(length: Int) {
    let word = String(repeating: "s", count: length)
    var search = Suggestions.Search(word: word)
    #expect(!search.isPossible)
    #expect(search.lengths == nil)
    let goesOn = search.consider(word + "x")
    #expect(!goesOn)
    #expect(search.cells == 0 && search.candidates == 0 && search.best == nil)
    #expect(Suggestions.closest(to: word, in: [word + "x"]) == nil)
  }

  @Test("an unknown command or option of 5,000 characters is refused at once, without suggestion")
  func longCommand() async {
    let long = String(repeating: "x", count: 5_000)
    let command = await run([long])
    #expect(command.status == 64)
    #expect(!command.err.contains("did you mean"))
    let option = await run(["scenes", "--" + long])
    #expect(option.status == 64)
    #expect(!option.err.contains("did you mean"))
  }

  /// A store of `count` scenes, one snapshot each, ids `scene-000001-…`, written with one raw SQL
  /// statement (seconds less than saving them one by one).
  func bigStore(count: Int) throws -> String {
    let path = directory.path("big.sqlite")
    let store = try SnapshotStore(path: path)
    try store.save(try stackSnapshot([.settings]), scene: "seed")
    let code = rawSQL(
      path,
      """
      PRAGMA synchronous = OFF;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
      INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
      SELECT printf('scene-%06d-%08x', i, (i * 2654435761) % 4294967296), saved_at, format,
        route_schema_version, document
      FROM n, (SELECT * FROM snapshot WHERE scene_id = 'seed');
      """)
    #expect(code == 0)
    return path
  }

  @Test("an unknown scene id among 100,000 scenes: the suggestion's work is bounded")
  func hundredThousandScenes() async throws {
    let count = 100_000
    let path = try bigStore(count: count)
    let store = try SnapshotStore(path: path, access: .readOnly)
    let hex = String((77_777 * 2_654_435_761) % 4_294_967_296, radix: 16)
    let real = "scene-077777-" + String(repeating: "0", count: 8 - hex.count) + hex
    var typo = Array(real)
    typo[16] = "#"
    let misspelt = String(typo)
    for id in [misspelt, "sceen-050000-12345678", String(repeating: "é", count: 5_000)] {
      let clock = ContinuousClock()
      let started = clock.now
      let result = await run(["--db", path, "show", id])
      let elapsed = clock.now - started
      let search = CommandContext.sceneSuggestion(for: id, in: store)
      print(
        "show <unknown id of \(id.count) characters> on \(count) scenes: \(elapsed) "
          + "(debug build), \(search.candidates) candidates, \(search.cells) cells")
      #expect(result.status == 65)
      // Each candidate costs at most a band of (2 × 2 + 1) cells per character of the id, and
      // the whole search at most its cap.
      #expect(search.cells <= search.candidates * 5 * (id.unicodeScalars.count + 1))
      #expect(search.cells <= Suggestions.Search.maxCells)
      // Only the index entries on each side of the id are read, whatever the store holds.
      #expect(search.candidates <= 2 * CommandContext.suggestionWindow)
      if id == misspelt {
        #expect(result.err.hasSuffix("(did you mean '\(real)'?)"))
        #expect(search.best == real)
      } else {
        #expect(!result.err.contains("did you mean"))
      }
      if id.count > Suggestions.Search.maxWordLength {
        #expect(search.candidates == 0 && search.cells == 0)
      }
    }
  }

  @Test("scene ids of another length are never compared")
  func lengthFilter() async throws {
    let path = try bigStore(count: 2_000)
    let store = try SnapshotStore(path: path, access: .readOnly)
    // Every stored id has 21 characters; a 10-character id can be close to none of them.
    let search = CommandContext.sceneSuggestion(for: "scene-0001", in: store)
    #expect(search.candidates == 0)
    #expect(search.cells == 0)
    #expect(await run(["--db", path, "history", "seeed"]).err.hasSuffix("(did you mean 'seed'?)"))
  }

  @Test("a store smaller than the window is searched whole, even for a typo in the first character")
  func smallStoreWhole() throws {
    let path = try bigStore(count: 2_000)
    let store = try SnapshotStore(path: path, access: .readOnly)
    let real = try #require(
      rawQuery(path, "SELECT scene_id FROM snapshot WHERE id = 1500").first?.first)
    let typo = "x" + real.dropFirst()
    let search = CommandContext.sceneSuggestion(for: typo, in: store)
    #expect(search.best == real)
  }
}
