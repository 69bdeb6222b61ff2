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
    for (name, records) in stacks {
      // Looked up by Swift's equality, then the key itself compared by its bytes.
      guard let index = other.stacks.index(forKey: name) else { return false }
      let (otherName, otherRecords) = other.stacks[index]
      guard Self.same(name, otherName), records.count == otherRecords.count else { return false }
      // By index, each record borrowed where it stands: no copies on the way.
      for index in records.indices {
        guard Self.same(records[index], otherRecords[index]) else { return false }
      }
    }
    return true
  }

  private static func same(_ record: RouteRecord?, _ other: RouteRecord?) -> Bool {
    switch (record, other) {
    case (nil, nil): true
    case (let record?, let other?): same(record, other)
    default: false
    }
  }

  private static func same(_ record: RouteRecord, _ other: RouteRecord) -> Bool {
    record.version == other.version && record.failure == nil && same(record.tag, other.tag)
      && same(record.json, other.json)
  }

  private static func same(_ text: String?, _ other: String?) -> Bool {
    switch (text, other) {
    case (nil, nil): true
    case (let text?, let other?): same(text, other)
    default: false
    }
  }

  private static func same(_ text: String, _ other: String) -> Bool {
    var text = text
    var other = other
    return text.withUTF8 { mine in
      other.withUTF8 { theirs in
        guard mine.count == theirs.count else { return false }
        guard let left = mine.baseAddress, let right = theirs.baseAddress else { return true }
        return left == right || memcmp(left, right, mine.count) == 0
      }
    }
  }
}
