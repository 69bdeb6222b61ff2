import Foundation

extension SceneSnapshot {
  /// The snapshot as a format-1 JSON document: compact, keys sorted, so equal snapshots give equal
  /// bytes. The same bytes as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` gives
  /// for the format's document, written by hand because it runs on every save; for a save time
  /// before 1582-10-15 the date is the proleptic Gregorian calendar's, as ISO 8601 says, where
  /// Foundation's formatting switches to the Julian calendar.
  public func encoded() -> Data {
    encodedLocatingSavedAt().document
  }

  /// The document ``encoded()`` writes, and where its `savedAt` date lies in it: the 20 bytes
  /// `YYYY-MM-DDTHH:MM:SSZ` between the quotes (the format writes every date at that width). Two
  /// snapshots that differ only in their save time give documents that differ only there: a
  /// store compares documents with that range masked instead of encoding one of them again.
  ///
  /// With `storedForm`, the document is written in the form a store keeps it
  /// (``StoredDocument``): the tag of a stack's record that has the same bytes as the previous
  /// record's is left out. The same bytes as ``StoredDocument/elidingRepeatedTags(_:limits:)``
  /// gives of the document (tests), and `jsonCount` is the document's length once expanded.
  package func encodedLocatingSavedAt(storedForm: Bool = false) -> (
    document: Data, savedAt: Range<Int>, jsonCount: Int
  ) {
    // Room for most documents at once: growing the buffer copies what was written.
    var writer = JSONWriter(capacity: Self.initialCapacity)
    let (savedAt, elided) = write(storedForm: storedForm, to: &writer)
    let document = writer.finish()
    return (document, savedAt, document.count + elided)
  }

  /// ``encodedLocatingSavedAt(storedForm:)`` into `buffer`'s memory, kept from one encoding to
  /// the next (a store's saves): the document is `buffer`'s bytes until its next use, and no
  /// memory is allocated while the buffer is large enough.
  ///
  /// - Returns: where the save time lies in the document, and its length as JSON.
  package func encodeLocatingSavedAt(storedForm: Bool = false, into buffer: DocumentBuffer) -> (
    savedAt: Range<Int>, jsonCount: Int
  ) {
    var writer = JSONWriter(taking: buffer, capacity: Self.initialCapacity)
    let (savedAt, elided) = write(storedForm: storedForm, to: &writer)
    let count = writer.count
    writer.finish(into: buffer)
    return (savedAt, count + elided)
  }

  /// The memory an encoding starts with: room for most documents at once.
  private static var initialCapacity: Int { 4096 }

  /// Writes the document (``encodedLocatingSavedAt(storedForm:)``) with `writer`.
  ///
  /// - Returns: where the save time lies, and the bytes of the tags left out (`storedForm`).
  private func write(storedForm: Bool, to writer: inout JSONWriter) -> (
    savedAt: Range<Int>, elided: Int
  ) {
    // Written straight in the format's key order (keys sorted), not in slot order: a walk over the
    // slots would have to hold the other members back until the stacks, which sort last, are done.
    // The bytes of the tags left out, with their members' `,"tag":`.
    var elided = 0
    // Members in sorted key order, as the format specifies.
    writer.beginObject()
    if let build = metadata.appBuild {
      writer.key(literal: "appBuild")
      writer.string(build)
    }
    writer.key(literal: "format")
    writer.integer(Self.currentFormatVersion)
    writer.key(literal: "routeSchemaVersion")
    writer.integer(metadata.routeSchemaVersion)
    writer.key(literal: "savedAt")
    // The date starts after the opening quote.
    let savedAtStart = writer.count + 1
    writer.date(metadata.savedAt)
    let savedAt = savedAtStart..<max(savedAtStart, writer.count - 1)
    if let selectedTab {
      writer.key(literal: "selectedTab")
      Self.write(selectedTab, to: &writer)
    }
    if let sheet {
      writer.key(literal: "sheet")
      Self.write(sheet, to: &writer)
    }
    if let split {
      writer.key(literal: "split")
      writer.beginObject()
      writer.key(literal: "columnVisibility")
      writer.string(split.columnVisibility.rawValue)
      if let content = split.contentSelection {
        writer.key(literal: "content")
        Self.write(content, to: &writer)
      }
      if let column = split.preferredCompactColumn {
        writer.key(literal: "preferredCompactColumn")
        writer.string(column.rawValue)
      }
      if let sidebar = split.sidebarSelection {
        writer.key(literal: "sidebar")
        Self.write(sidebar, to: &writer)
      }
      writer.endObject()
    }
    writer.key(literal: "stacks")
    writer.beginObject()
    // In JSONEncoder's `.sortedKeys` order: by the names' UTF-8 bytes (Swift's `<` orders some
    // non-ASCII names otherwise, and not always consistently).
    if stacks.count <= 16 {
      // A scene has a few stacks: each round writes the least of those not written yet, found by
      // a scan of them all (a bit each marks those written), with no array of places to sort.
      var written: UInt32 = 0
      for _ in 0..<stacks.count {
        var least: Dictionary<String, [RouteRecord]>.Index?
        var leastBit: UInt32 = 0
        var bit: UInt32 = 1
        for place in stacks.indices {
          defer { bit &<<= 1 }
          guard written & bit == 0 else { continue }
          if let least, !Self.precedes(stacks.keys[place], stacks.keys[least]) { continue }
          least = place
          leastBit = bit
        }
        guard let least else { break }
        written |= leastBit
        Self.write(stack: stacks[least], storedForm: storedForm, elided: &elided, to: &writer)
      }
    } else {
      // Many stacks: sorted, so that their number never costs its square.
      let order = stacks.indices.sorted { Self.precedes(stacks.keys[$0], stacks.keys[$1]) }
      for place in order {
        Self.write(stack: stacks[place], storedForm: storedForm, elided: &elided, to: &writer)
      }
    }
    writer.endObject()
    writer.endObject()
    return (savedAt, elided)
  }

  /// Whether `name` comes before `other` in JSONEncoder's `.sortedKeys` order (outside Apple's
  /// compatibility mode): by their UTF-8 bytes.
  package static func precedes(_ name: String, _ other: String) -> Bool {
    // Compared in place where both have contiguous bytes (native and small strings do).
    let inPlace = name.utf8.withContiguousStorageIfAvailable { mine in
      other.utf8.withContiguousStorageIfAvailable { theirs in
        let common = min(mine.count, theirs.count)
        guard common > 0, let left = mine.baseAddress, let right = theirs.baseAddress else {
          return mine.count < theirs.count
        }
        let order = memcmp(left, right, common)
        return order == 0 ? mine.count < theirs.count : order < 0
      }
    }
    if let inPlace, let inPlace { return inPlace }
    return name.utf8.lexicographicallyPrecedes(other.utf8)
  }

  /// A stack as the `stacks` object's member: its name, then its records in an array; with
  /// `storedForm`, a record's tag left out when its bytes are the previous record's, its length
  /// with its member's added to `elided`.
  private static func write(
    stack: (key: String, value: [RouteRecord]), storedForm: Bool, elided: inout Int,
    to writer: inout JSONWriter
  ) {
    writer.key(stack.key)
    writer.beginArray()
    // Borrowed where they stand: a record copied out retains and releases its strings.
    stack.value.withUnsafeBufferPointer { records in
      guard let first = records.baseAddress else { return }
      // The length of the previous record's tag as written, quotes included.
      var tagLength = 0
      for index in records.indices {
        if storedForm, index > 0, sameBytes(first[index - 1].tag, first[index].tag) {
          write(first + index, tagged: false, to: &writer)
          elided += RecordText.tag.count + tagLength
        } else {
          tagLength = write(first + index, tagged: true, to: &writer)
        }
      }
    }
    writer.endArray()
  }

  /// Whether two strings have the same UTF-8 bytes (not `==`, which takes canonically equivalent
  /// strings for equal: a tag written back must be the one that was left out, byte for byte).
  private static func sameBytes(_ string: String, _ other: String) -> Bool {
    let inPlace = string.utf8.withContiguousStorageIfAvailable { mine in
      other.utf8.withContiguousStorageIfAvailable { theirs in
        guard mine.count == theirs.count else { return false }
        guard let left = mine.baseAddress, let right = theirs.baseAddress else { return true }
        return memcmp(left, right, mine.count) == 0
      }
    }
    if let inPlace, let inPlace { return inPlace }
    return string.utf8.elementsEqual(other.utf8)
  }

  /// The fixed text around a route record's strings.
  private enum RecordText {
    static let open = JSONWriter.Fragment(#"{"json":"#)
    static let tag = JSONWriter.Fragment(#","tag":"#)
    static let version = JSONWriter.Fragment(#","version":"#)
    static let close = JSONWriter.Fragment("}")
  }

  /// A route record's object, `{"json":…,"tag":…}` and `"version"` when it is not 1 (keys
  /// sorted), written as fixed fragments around the two strings.
  private static func write(_ record: RouteRecord, to writer: inout JSONWriter) {
    _ = withUnsafePointer(to: record) { write($0, tagged: true, to: &writer) }
  }

  /// The record at `record`, read where it stands: a record copied out of its array retains and
  /// releases its strings and its failure. Without `tagged`, its tag is left out (the stored form).
  /// Returns the length of the tag as written, its quotes included (0 without it).
  @inline(__always)
  @discardableResult
  private static func write(
    _ record: UnsafePointer<RouteRecord>, tagged: Bool, to writer: inout JSONWriter
  ) -> Int {
    writer.rawValue(RecordText.open)
    writer.quoted(record.pointee.json)
    var tagLength = 0
    if tagged {
      writer.raw(RecordText.tag)
      let start = writer.count
      writer.quoted(record.pointee.tag)
      tagLength = writer.count - start
    }
    let version = record.pointee.version
    if version != 1 {
      writer.raw(RecordText.version)
      writer.digits(version)
    }
    writer.raw(RecordText.close)
    return tagLength
  }
}
