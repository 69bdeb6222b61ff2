import Foundation

extension SceneSnapshot {
  /// Whether this snapshot encodes to the same document as `other` but for their save times, and
  /// passes ``check()`` whenever `other` does: every field the document holds compared, every string
  /// by its UTF-8 bytes (Swift's `==` would take "é" in NFC and in NFD for equal, which encode
  /// differently), and no route of this one left unrecorded. ``formatVersion`` is not compared:
  /// ``encoded()`` always writes the current format.
  ///
  /// A store answers a save of an unchanged state with it, without encoding the snapshot.
  package func encodesLike(_ other: SceneSnapshot) -> Bool {
    guard metadata.routeSchemaVersion == other.metadata.routeSchemaVersion,
      Self.same(metadata.appBuild, other.metadata.appBuild),
      Self.same(selectedTab, other.selectedTab), Self.same(sheet, other.sheet),
      stacks.count == other.stacks.count
    else { return false }
    switch (split, other.split) {
    case (nil, nil): break
    case (let mine?, let theirs?):
      guard mine.columnVisibility == theirs.columnVisibility,
        mine.preferredCompactColumn == theirs.preferredCompactColumn,
        Self.same(mine.sidebarSelection, theirs.sidebarSelection),
        Self.same(mine.contentSelection, theirs.contentSelection)
      else { return false }
    default: return false
    }
    // The same dictionary storage holds the same stacks (a snapshot saved again as a copy of the
    // last, with a later save time, shares it), as `Dictionary`'s own `==` first asks.
    if Self.identical(stacks, other.stacks) { return true }
    // A scene has a few stacks: each found in the other's by its name's bytes, without hashing
    // it. Keys of one dictionary differ by Swift's equality, so by their bytes too: a name found
    // once for each stack, with equal counts, pairs them all.
    if stacks.count <= 8 {
      for (name, records) in stacks {
        guard
          let match = other.stacks.first(where: { Self.same(name, $0.key) }),
          Self.same(records, match.value)
        else { return false }
      }
      return true
    }
    for (name, records) in stacks {
      // Looked up by Swift's equality, then the key itself compared by its bytes.
      guard let index = other.stacks.index(forKey: name) else { return false }
      let (otherName, otherRecords) = other.stacks[index]
      guard Self.same(name, otherName), Self.same(records, otherRecords) else { return false }
    }
    return true
  }

  /// Whether two stacks hold the same records, walked in their arrays' storage: a record copied
  /// out of an array costs a retain and a release of each of its strings.
  private static func same(_ records: [RouteRecord], _ other: [RouteRecord]) -> Bool {
    if identical(records, other) { return true }
    return records.withUnsafeBufferPointer { mine in
      other.withUnsafeBufferPointer { theirs in
        guard mine.count == theirs.count else { return false }
        // From the top of the stack down: a navigation changes the top first.
        for index in mine.indices.reversed() {
          guard same(mine[index], theirs[index]) else { return false }
        }
        return true
      }
    }
  }

  private static func same(_ record: RouteRecord?, _ other: RouteRecord?) -> Bool {
    switch (record, other) {
    case (nil, nil): true
    case (let record?, let other?): same(record, other)
    default: false
    }
  }

  private static func same(_ record: RouteRecord, _ other: RouteRecord) -> Bool {
    guard record.version == other.version, case .none = record.failure else { return false }
    return same(record.tag, other.tag) && same(record.json, other.json)
  }

  private static func same(_ text: String?, _ other: String?) -> Bool {
    switch (text, other) {
    case (nil, nil): true
    case (let text?, let other?): same(text, other)
    default: false
    }
  }

  /// Whether two values have the same representation, bit for bit. For a string, an array or a
  /// dictionary that is the same storage (which copy-on-write keeps unchanged while it is shared)
  /// or the same small string held inline: equal contents, told without reading them. Different
  /// representations say nothing.
  @inline(__always)
  private static func identical<T>(_ value: T, _ other: T) -> Bool {
    withUnsafeBytes(of: value) { left in
      withUnsafeBytes(of: other) { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return left.count == right.count
        }
        return left.count == right.count && memcmp(leftBase, rightBase, left.count) == 0
      }
    }
  }

  /// Whether two strings have the same UTF-8 bytes, read in place (a native string's bytes are
  /// contiguous; any other is compared byte by byte).
  private static func same(_ text: String, _ other: String) -> Bool {
    // The same representation is the same storage, or the same small string held inline: equal
    // bytes, told without reading them (a snapshot saved again is usually a copy of the last).
    if identical(text, other) { return true }
    let mine = text.utf8
    let theirs = other.utf8
    guard mine.count == theirs.count else { return false }
    let compared = mine.withContiguousStorageIfAvailable { left in
      theirs.withContiguousStorageIfAvailable { right -> Bool in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return true
        }
        return leftBase == rightBase || memcmp(leftBase, rightBase, left.count) == 0
      }
    }
    guard let compared, let compared else { return mine.elementsEqual(theirs) }
    return compared
  }
}
