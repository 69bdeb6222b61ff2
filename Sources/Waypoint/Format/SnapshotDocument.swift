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
  /// store compares documents with that range masked instead of decoding either.
  package func encodedLocatingSavedAt() -> (document: Data, savedAt: Range<Int>) {
    // Room for most documents at once: growing the buffer copies what was written.
    var writer = JSONWriter(capacity: 4096)
    // Members in sorted key order, as the format specifies; written straight in that order, not
    // in slot order, which would hold the other members back until the stacks (sorted last).
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
    // non-ASCII names otherwise).
    for name in stacks.keys.sorted(by: Self.precedes) {
      writer.key(name)
      writer.beginArray()
      for record in stacks[name] ?? [] { Self.write(record, to: &writer) }
      writer.endArray()
    }
    writer.endObject()
    writer.endObject()
    return (writer.finish(), savedAt)
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

  /// The fixed text around a route record's strings.
  private enum RecordText {
    package static let open = JSONWriter.Fragment(#"{"json":"#)
    package static let tag = JSONWriter.Fragment(#","tag":"#)
    package static let version = JSONWriter.Fragment(#","version":"#)
    package static let close = JSONWriter.Fragment("}")
  }

  /// A route record's object, `{"json":…,"tag":…}` and `"version"` when it is not 1 (keys
  /// sorted), written as fixed fragments around the two strings.
  private static func write(_ record: RouteRecord, to writer: inout JSONWriter) {
    writer.rawValue(RecordText.open)
    writer.quoted(record.json)
    writer.raw(RecordText.tag)
    writer.quoted(record.tag)
    if record.version != 1 {
      writer.raw(RecordText.version)
      writer.digits(record.version)
    }
    writer.raw(RecordText.close)
  }
}
