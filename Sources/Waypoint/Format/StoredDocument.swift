import Foundation

/// The form in which a store keeps a snapshot document: the document's JSON with the tag of each
/// route record in a stack left out when it is the same as the record's before it in that stack
/// (most stacks hold routes of one type). Specified in `Docs/SnapshotFormat.md`, "Stored form".
///
/// The stored form is JSON too, and ``expanded(_:limits:)`` gives back the document byte for byte:
/// a record of a stack's array that is an object whose first member is `"json"` (a string) and
/// that has no `"tag"` member gets `,"tag":` and the previous element's tag (as written, its
/// escapes kept) right after its `"json"` value, when the previous element is an object with a
/// string tag (its own or one it got this way). Nothing else changes: a document whose records
/// all carry their tags, as every document of format 1 does, is its own stored form, so rows
/// written before the stored form read as they always did.
///
/// Both directions read only the document's structure (a string ends at its first unescaped
/// quote; nothing is unescaped or checked for validity): the readers check the expanded document
/// as they check any other. A document whose structure cannot be walked (not JSON, nested deeper
/// than the limit, bytes after its object) is left as it is.
package enum StoredDocument {
  /// What ``expanded(_:limits:)`` gives.
  package enum Expansion: Equatable {
    /// The document's JSON (the stored bytes themselves when no tag was left out).
    case document(Data)
    /// The expanded document would be `byteCount` bytes, over the limit: nothing was expanded.
    case tooLarge(byteCount: Int)
  }

  /// `,"tag":`, written before a tag put back.
  private static let tagMember: StaticString = #","tag":"#

  /// Bytes written one piece after another into memory of their own.
  private struct Output {
    let base: UnsafeMutableRawPointer
    let count: Int
    var offset = 0

    mutating func copy(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
      guard !range.isEmpty, let source = bytes.baseAddress, offset + range.count <= count else {
        return
      }
      (base + offset).copyMemory(from: source + range.lowerBound, byteCount: range.count)
      offset += range.count
    }

    mutating func copy(_ text: StaticString) {
      let length = text.utf8CodeUnitCount
      guard offset + length <= count else { return }
      (base + offset).copyMemory(from: text.utf8Start, byteCount: length)
      offset += length
    }
  }

  /// `count` bytes written by `write` (the Data's bytes reached once: appending piece by piece
  /// checks exclusive access at every piece).
  private static func assembled(count: Int, _ write: (inout Output) -> Void) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var output = Output(base: base, count: count)
      write(&output)
    }
    return data
  }

  /// The stored form of `document`, JSON as ``SceneSnapshot/encoded()`` writes it: each record of
  /// a stack written `{"json":…,"tag":…` whose tag has the same bytes as the previous record's
  /// loses its `,"tag":…` member. A document whose structure cannot be walked is returned as it
  /// is.
  ///
  /// A record of a stack other than its first that has no tag and whose first member is `"json"`
  /// would be given one by ``expanded(_:limits:)``; the writer and every canonical document give
  /// every record its tag, so this never meets one.
  package static func elidingRepeatedTags(_ document: Data, limits: InputLimits) -> Data {
    document.withUnsafeBytes { bytes -> Data in
      var removed: [Range<Int>] = []
      var walk = Walk(bytes, maxDepth: limits.maxNestingDepth)
      do throws(Walk.Unsure) {
        try walk.document { record, previous in
          guard let record, let tag = record.tag else { return nil }
          if let previous, let directly = record.tagDirectlyAfterJSON,
            Walk.same(bytes, tag, previous)
          {
            removed.append(directly)
          }
          return tag
        }
      } catch {
        return document
      }
      guard !removed.isEmpty else { return document }
      let count = bytes.count - removed.reduce(0) { $0 + $1.count }
      return Self.assembled(count: count) { output in
        var from = 0
        for range in removed {
          output.copy(bytes, from..<range.lowerBound)
          from = range.upperBound
        }
        output.copy(bytes, from..<bytes.count)
      }
    }
  }

  /// The document whose stored form is `stored`: every tag left out put back (see
  /// ``StoredDocument``). Over `limits.maxDocumentBytes` once expanded, nothing is expanded and the
  /// answer is ``Expansion/tooLarge(byteCount:)`` with the size it would have, counted without
  /// making it: a row of many records naming a long tag once makes no large document in memory
  /// (what is kept meanwhile, where each tag goes back, is bounded by the limit too). Stored bytes
  /// whose structure cannot be walked come back as they are, for the readers to judge.
  package static func expanded(_ stored: Data, limits: InputLimits) -> Expansion {
    let limit = limits.maxDocumentBytes
    return stored.withUnsafeBytes { bytes -> Expansion in
      // Each insertion: where, and the tag's string (its quotes included) to write there.
      var insertions: [(at: Int, tag: Range<Int>)] = []
      var total = bytes.count
      var walk = Walk(bytes, maxDepth: limits.maxNestingDepth)
      do throws(Walk.Unsure) {
        try walk.document { record, previous in
          guard let record else { return nil }
          if let tag = record.tag { return tag }
          guard !record.hasTagKey, let previous, let at = record.jsonEnd else { return nil }
          // Counted without overflow: a hostile row may name a long tag many times. Past the
          // limit, only counted: nothing more is kept for a document that will not be made.
          let added = tagMember.utf8CodeUnitCount + previous.count
          let (sum, overflow) = total.addingReportingOverflow(added)
          total = overflow ? Int.max : sum
          if total <= limit { insertions.append((at, previous)) }
          return previous
        }
      } catch {
        return stored.count <= limit ? .document(stored) : .tooLarge(byteCount: stored.count)
      }
      guard total <= limit else { return .tooLarge(byteCount: total) }
      guard !insertions.isEmpty else { return .document(stored) }
      return .document(
        Self.assembled(count: total) { output in
          var from = 0
          for insertion in insertions {
            output.copy(bytes, from..<insertion.at)
            output.copy(tagMember)
            output.copy(bytes, insertion.tag)
            from = insertion.at
          }
          output.copy(bytes, from..<bytes.count)
        })
    }
  }

  /// The document's JSON, or `nil` when it would be over the limit (readers that need no reason).
  package static func expandedDocument(_ stored: Data, limits: InputLimits) -> Data? {
    guard case .document(let document) = expanded(stored, limits: limits) else { return nil }
    return document
  }
}

extension StoredDocument {
  /// A walk of a document's structure: its top-level members, and the elements of each array in
  /// its `"stacks"` object.
  struct Walk {
    struct Unsure: Error {}

    /// What the walk learned of one element of a stack's array that is an object.
    struct Record {
      /// The end of the `"json"` member's string value, when `"json"` is the first member and its
      /// value a string: where a tag left out goes back.
      var jsonEnd: Int?
      /// Whether the object has a `"tag"` member, whatever its value.
      var hasTagKey = false
      /// The first `"tag"` member's string value, its quotes included.
      var tag: Range<Int>?
      /// The bytes `,"tag":"…"` right after the `"json"` value, when the record is written so.
      var tagDirectlyAfterJSON: Range<Int>?
    }

    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) {
      self.bytes = bytes
      self.maxDepth = maxDepth
    }

    /// Walks the document, calling `record` for each element of each stack's array, in order,
    /// with the element (`nil` when it is not an object) and what the previous element of the
    /// same array answered (`nil` for the first); it answers the element's tag, its quotes
    /// included, or `nil`.
    mutating func document(
      _ record: (Record?, Range<Int>?) throws(Unsure) -> Range<Int>?
    ) throws(Unsure) {
      skipSpace()
      try expect(UInt8(ascii: "{"))
      guard maxDepth >= 1 else { throw Unsure() }
      skipSpace()
      if !take(UInt8(ascii: "}")) {
        repeat {
          let key = try memberKey()
          if self.bytes(in: key, are: #""stacks""#), peek() == UInt8(ascii: "{") {
            try stacks(record)
          } else {
            try value(depth: 1)
          }
          skipSpace()
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
      }
      skipSpace()
      guard index == bytes.count else { throw Unsure() }
    }

    /// The `"stacks"` object (at depth 2): each member's value, when an array, element by element.
    private mutating func stacks(
      _ record: (Record?, Range<Int>?) throws(Unsure) -> Range<Int>?
    ) throws(Unsure) {
      guard maxDepth >= 2 else { throw Unsure() }
      index += 1
      skipSpace()
      if take(UInt8(ascii: "}")) { return }
      repeat {
        _ = try memberKey()
        if peek() == UInt8(ascii: "[") {
          guard maxDepth >= 3 else { throw Unsure() }
          index += 1
          skipSpace()
          if !take(UInt8(ascii: "]")) {
            var previous: Range<Int>?
            var first = true
            repeat {
              skipSpace()
              let element: Record? =
                peek() == UInt8(ascii: "{") ? try self.record() : try skippingValue(depth: 3)
              previous = try record(element, first ? nil : previous)
              first = false
              skipSpace()
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
          }
        } else {
          try value(depth: 2)
        }
        skipSpace()
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
    }

    /// A value that is not a record: skipped, answering `nil`.
    private mutating func skippingValue(depth: Int) throws(Unsure) -> Record? {
      try value(depth: depth)
      return nil
    }

    /// An element of a stack's array that is an object (at depth 4).
    private mutating func record() throws(Unsure) -> Record {
      guard maxDepth >= 4 else { throw Unsure() }
      var found = Record()
      index += 1
      skipSpace()
      if take(UInt8(ascii: "}")) { return found }
      var members = 0
      repeat {
        let key = try memberKey()
        let start = index
        let isString = peek() == UInt8(ascii: "\"")
        try value(depth: 4)
        if bytes(in: key, are: #""json""#), members == 0, isString {
          found.jsonEnd = index
        } else if bytes(in: key, are: #""tag""#) {
          // A second `"tag"`: the first is not left out (the second would be read in its place).
          if found.hasTagKey { found.tagDirectlyAfterJSON = nil }
          if !found.hasTagKey, isString {
            found.tag = start..<index
            // `,"tag":` then the string, straight after the `"json"` value.
            if members == 1, let jsonEnd = found.jsonEnd, key.lowerBound == jsonEnd + 1,
              start == key.upperBound + 1
            {
              found.tagDirectlyAfterJSON = jsonEnd..<index
            }
          }
          found.hasTagKey = true
        }
        members += 1
        skipSpace()
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
      return found
    }

    /// Skips any value whose container is at `depth` (so its own members at `depth + 1`).
    private mutating func value(depth: Int) throws(Unsure) {
      switch peek() {
      case UInt8(ascii: "\""):
        _ = try string()
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard depth + 1 <= maxDepth else { throw Unsure() }
        index += 1
        skipSpace()
        if take(close) { return }
        repeat {
          if close == UInt8(ascii: "}") {
            _ = try memberKey()
          } else {
            skipSpace()
          }
          try value(depth: depth + 1)
          skipSpace()
        } while take(UInt8(ascii: ","))
        try expect(close)
      default:
        // A number or a literal: its bytes up to the next delimiter, at least one.
        let start = index
        while index < bytes.count {
          switch bytes[index] {
          case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"),
            UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), 0x20, 0x09, 0x0A, 0x0D:
            guard index > start else { throw Unsure() }
            return
          default: index += 1
          }
        }
        guard index > start else { throw Unsure() }
      }
    }

    /// A member's key and its colon, whitespace around them skipped: the key's string, its quotes
    /// included (the walk then at its value).
    private mutating func memberKey() throws(Unsure) -> Range<Int> {
      skipSpace()
      let key = try string()
      skipSpace()
      try expect(UInt8(ascii: ":"))
      skipSpace()
      return key
    }

    /// A string, its quotes included: it ends at the first quote no backslash escapes.
    private mutating func string() throws(Unsure) -> Range<Int> {
      guard peek() == UInt8(ascii: "\"") else { throw Unsure() }
      let start = index
      var offset = index + 1
      let count = bytes.count
      while true {
        offset = Self.plainRunEnd(bytes, from: offset)
        guard offset < count else { throw Unsure() }
        switch bytes[offset] {
        case UInt8(ascii: "\""):
          index = offset + 1
          return start..<index
        case UInt8(ascii: "\\"): offset += 2
        default: offset += 1
        }
      }
    }

    /// The first offset from `offset` on holding a quote or a backslash (or the end), eight bytes
    /// tested at a time.
    @inline(__always)
    private static func plainRunEnd(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
      let count = bytes.count
      guard let base = bytes.baseAddress, offset < count else { return offset }
      var offset = offset
      let ones: UInt64 = 0x0101_0101_0101_0101
      while count - offset >= 8 {
        let word = UInt64(
          littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let special =
          (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes))
          & (ones &* 0x80)
        if special != 0 { return offset + special.trailingZeroBitCount >> 3 }
        offset += 8
      }
      while offset < count {
        let byte = base.load(fromByteOffset: offset, as: UInt8.self)
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return offset }
        offset += 1
      }
      return offset
    }

    @inline(__always)
    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    private mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    @inline(__always)
    private mutating func take(_ byte: UInt8) -> Bool {
      guard peek() == byte else { return false }
      index += 1
      return true
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws(Unsure) {
      guard take(byte) else { throw Unsure() }
    }

    /// Whether the bytes in `range` are `word`'s.
    private func bytes(in range: Range<Int>, are word: StaticString) -> Bool {
      guard range.count == word.utf8CodeUnitCount, let base = bytes.baseAddress else {
        return false
      }
      return memcmp(base + range.lowerBound, word.utf8Start, range.count) == 0
    }

    /// Whether the bytes of `bytes` in `range` and in `other` are the same.
    static func same(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ other: Range<Int>)
      -> Bool
    {
      guard range.count == other.count else { return false }
      guard let base = bytes.baseAddress else { return true }
      return memcmp(base + range.lowerBound, base + other.lowerBound, range.count) == 0
    }
  }
}
