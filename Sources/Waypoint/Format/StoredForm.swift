/// The "stored form" that schema 5 of the store kept some rows in, and the expansion that gives the
/// snapshot document back: migration 6 expands every such row once, and a store of schema 5
/// opened read-only (which cannot migrate) expands each document as it reads it.
///
/// In the stored form, a route record of a stack's array whose tag had the same bytes as the
/// previous record's was written without its `"tag"` member. The expansion is the rule that form
/// was read by: a record of a stack's array that is an object whose first member is `"json"` (a
/// string) and that has no `"tag"` member gets the previous element's tag (as written, its escapes
/// kept) right after its `"json"` member, when the previous element is an object with a string
/// tag (its own or one it got this way). Nothing else changes. A document of format 1 as Waypoint
/// writes it has no such record, and is its own expansion.
package enum StoredForm {
  /// The deepest nesting expanded. A snapshot document nests four levels (the document, its
  /// stacks, a stack, a record); a deeper one never read as a snapshot, and a bound keeps the
  /// recursion of building and writing its nodes within any thread's stack.
  static let maxDepth = InputLimits.default.maxNestingDepth

  /// The document whose stored form is `stored`, compact as the format writes it; `nil` when no
  /// record lacks its tag, or when `stored` is not JSON, is over `limit` bytes, is nested deeper
  /// than ``maxDepth``, or would be over `limit` once expanded: such bytes are left as they are,
  /// for the readers to judge.
  package static func expanded(_ stored: [UInt8], limit: Int) -> [UInt8]? {
    guard stored.count <= limit, let root = try? JSONNode.scanning(stored, maxDepth: maxDepth),
      case .object(var members) = root,
      let stacksPlace = members.firstIndex(where: { $0.rawKey == "stacks" }),
      case .object(var stacks) = members[stacksPlace].value
    else { return nil }
    var changed = false
    for place in stacks.indices {
      guard case .array(var records) = stacks[place].value else { continue }
      if giveTags(to: &records) {
        stacks[place].value = .array(records)
        changed = true
      }
    }
    guard changed else { return nil }
    members[stacksPlace].value = .object(stacks)
    let expanded = Array(JSONNode.object(members).jsonText.utf8)
    return expanded.count <= limit ? expanded : nil
  }

  /// Gives each record of a stack that lacks its tag the previous record's.
  ///
  /// - Returns: whether any record got one.
  private static func giveTags(to records: inout [JSONNode]) -> Bool {
    var changed = false
    // The previous record's tag, when it is an object with a string tag.
    var previous: String?
    for index in records.indices {
      guard case .object(var fields) = records[index] else {
        previous = nil
        continue
      }
      if let tag = fields.first(where: { $0.rawKey == "tag" }) {
        if case .string(let raw) = tag.value { previous = raw } else { previous = nil }
        continue
      }
      guard let tag = previous, let first = fields.first, first.rawKey == "json",
        case .string = first.value
      else {
        previous = nil
        continue
      }
      fields.insert(JSONNode.Member(rawKey: "tag", value: .string(raw: tag)), at: 1)
      records[index] = .object(fields)
      changed = true
    }
    return changed
  }
}
