import Foundation

/// The values a walk of ``BytesShapes`` read against an integer or a string node, noted in the
/// order it read them: the parts of a payload that a ``PayloadLayouts`` layout lets vary.
struct PayloadSlots {
  /// Whether the walk notes its slots; one that does not reads exactly as before, and notes
  /// nothing.
  let isNoting: Bool
  /// Five values a slot: its first byte, its end, its kind (0 a string, 1 an integer) and, for an
  /// integer, the bounds it was checked within.
  private(set) var values: [Int64] = []

  init(isNoting: Bool) {
    self.isNoting = isNoting
  }

  /// The number of slots noted.
  var count: Int { values.count / 5 }

  /// Forgets the slots noted, keeping the storage.
  mutating func removeAll() {
    values.removeAll(keepingCapacity: true)
  }

  /// Notes a string read by ``StrictJSONReader/rawString()`` over the bytes in `range` (the spaces
  /// it skipped before the string included).
  @inline(__always)
  mutating func noteString(_ range: Range<Int>) {
    guard isNoting else { return }
    values.append(Int64(range.lowerBound))
    values.append(Int64(range.upperBound))
    values.append(0)
    values.append(0)
    values.append(0)
  }

  /// Notes an integer read by ``StrictJSONReader/integer64()`` over the bytes in `range`, checked
  /// to be within `bounds`.
  @inline(__always)
  mutating func noteInteger(_ range: Range<Int>, within bounds: ClosedRange<Int64>) {
    guard isNoting else { return }
    values.append(Int64(range.lowerBound))
    values.append(Int64(range.upperBound))
    values.append(1)
    values.append(bounds.lowerBound)
    values.append(bounds.upperBound)
  }
}

/// Payloads that certainly matched a shape, remembered as layouts: their bytes, in which the
/// integers and strings read against an integer or a string node are slots. A route's payloads
/// mostly differ only in such values (`{"review":{"page":3,"productId":41}}` and
/// `{"review":{"page":4,"productId":97}}`), so a payload is first compared with the layouts of
/// its shape: equal bytes outside the slots, and in each slot a value that the same reading
/// (``StrictJSONReader/integer64()`` within the same bounds, ``StrictJSONReader/rawString()``)
/// accepts.
///
/// Why such a payload certainly matches too: the walk of ``BytesShapes`` is decided by the bytes it
/// reads and by its own state, and reads the same bytes in the same state up to the first slot.
/// There it makes the same reading the layout makes, which consumes the slot whole (the longest
/// integer, the string to its closing quote) and checks it as the walk does, so the walk goes on
/// in the same state to the next slot, and so on to the end of the value (and a space after it,
/// which the walk would read on, makes the layout miss). A walk that read a slot twice (a field
/// named twice in a shape) or one that reached past ``maxBytes`` is not remembered.
/// `FastPredictionTests` and the `fast-prediction` fuzz target hold a judgement with layouts to
/// one without.
///
/// At most ``capacity`` layouts, the oldest replaced first; no storage until the first one.
struct PayloadLayouts {
  /// The layouts kept (a power of two).
  static let capacity = 16
  /// The longest payload (in its escaped form) remembered.
  static let maxBytes = 256
  /// The most slots a layout has.
  static let maxSlots = 16

  /// A layout's shape, size and first bytes.
  private struct Entry {
    /// The shape (the root node of the walk).
    var node = -1
    var length = 0
    var slotCount = 0
    /// The first bytes before its first slot (up to eight), packed in a word, and the mask of
    /// their number: a payload of another case is mostly told apart by one test.
    var prefix: UInt64 = 0
    var mask: UInt64 = 0
  }

  private var entries: [Entry] = []
  /// Each layout's bytes, at ``maxBytes`` times its place.
  private var bytes: [UInt8] = []
  /// Each layout's slots, as ``PayloadSlots`` notes them, at ``maxSlots`` times five times its
  /// place.
  private var slots: [Int64] = []
  /// The limits the layouts were found under: a layout is only used under the same.
  private var maxPayloadBytes = 0
  private var maxDepth = 0
  /// The place of the layout last used or remembered, tried first.
  private var last = 0
  /// The place the next layout takes.
  private var next = 0
  /// The slots of the walk being made (reused).
  var scratch = PayloadSlots(isNoting: true)
  /// How many payloads a layout answered for (for tests, which check that layouts are used).
  private(set) var answers = 0

  /// The length of the payload at the start of `escaped` (its escaped form, as
  /// ``BytesShapes/certainlyMatchedLength(_:escaped:limits:)`` reads it) when it fits a layout of
  /// `node` found under the same `limits`: that method's answer; `nil` when none fits (the
  /// method then says what it is).
  mutating func matchedLength(
    _ node: Int, escaped: UnsafeRawBufferPointer, limits: InputLimits
  ) -> Int? {
    guard !entries.isEmpty, limits.maxPayloadBytes == maxPayloadBytes,
      min(limits.maxNestingDepth, 256) == maxDepth, let target = escaped.baseAddress
    else { return nil }
    let available = escaped.count
    // The payload's first eight bytes (fewer at the end of the bytes: they fit no prefix of
    // eight, and are compared in full by `match`).
    let word =
      available >= 8
      ? UInt64(littleEndian: target.loadUnaligned(as: UInt64.self)) : 0
    let found: (place: Int, length: Int)? = entries.withUnsafeBufferPointer { entries in
      // The layouts kept, from the last one used on.
      let count = entries.count
      var place = last < count ? last : 0
      var tried = 0
      while tried < count {
        let entry = entries[place]
        if entry.node == node, available < 8 || word & entry.mask == entry.prefix,
          let length = match(place, entry, target, available)
        {
          return (place, length)
        }
        tried &+= 1
        place &+= 1
        if place == count { place = 0 }
      }
      return nil
    }
    guard let found else { return nil }
    last = found.place
    answers &+= 1
    // As the walk checks the size.
    return found.length <= maxPayloadBytes ? found.length : nil
  }

  /// Whether the `count` bytes at `first` and `second` are equal: eight at a time, the last
  /// eight (or four) compared as one word that overlaps the words before.
  @inline(__always)
  private static func same(
    _ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int
  ) -> Bool {
    if count >= 8 {
      var offset = 0
      while count &- offset > 8 {
        guard
          first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset &+= 8
      }
      return first.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        == second.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 {
      return first.loadUnaligned(as: UInt32.self) == second.loadUnaligned(as: UInt32.self)
        && first.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
          == second.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    var offset = 0
    while offset < count {
      guard
        first.load(fromByteOffset: offset, as: UInt8.self)
          == second.load(fromByteOffset: offset, as: UInt8.self)
      else { return false }
      offset &+= 1
    }
    return true
  }

  /// The payload of `available` bytes at `target` (the rest of the bytes read) compared with the
  /// layout at `place`: its length when it fits.
  private func match(
    _ place: Int, _ entry: Entry, _ target: UnsafeRawPointer, _ available: Int
  ) -> Int? {
    bytes.withUnsafeBytes { stored -> Int? in
      slots.withUnsafeBufferPointer { slots -> Int? in
        guard let storedBase = stored.baseAddress, let slotBase = slots.baseAddress else {
          return nil
        }
        let base = storedBase + place &* Self.maxBytes
        let layout = slotBase + place &* Self.maxSlots &* 5
        // The slot readers read no nesting: no depth needed.
        var reader = StrictJSONReader(
          escaped: UnsafeRawBufferPointer(start: target, count: available), maxDepth: 0)
        var position = 0
        var literal = 0
        for slot in 0..<entry.slotCount {
          let at = layout + slot &* 5
          let run = Int(truncatingIfNeeded: at[0]) &- literal
          guard available &- position >= run,
            Self.same(target + position, base + literal, count: run)
          else { return nil }
          reader.index = position &+ run
          do throws(StrictJSONReader.Unsure) {
            if at[2] == 0 {
              _ = try reader.rawString()
            } else {
              let value = try reader.integer64()
              guard value >= at[3], value <= at[4] else { return nil }
            }
          } catch {
            return nil
          }
          position = reader.index
          literal = Int(truncatingIfNeeded: at[1])
        }
        let run = entry.length &- literal
        guard available &- position >= run,
          Self.same(target + position, base + literal, count: run)
        else { return nil }
        position &+= run
        // The walk reads on over a space after the value.
        if position < available, target.load(fromByteOffset: position, as: UInt8.self) == 0x20 {
          return nil
        }
        return position
      }
    }
  }

  /// Remembers the payload whose `length` bytes begin `escaped`, which certainly matched `node`
  /// under `limits` with the slots in ``scratch``, unless it is too long, has too many slots, or
  /// its slots are not one after the other.
  mutating func remember(
    _ node: Int, escaped: UnsafeRawBufferPointer, length: Int, limits: InputLimits
  ) {
    let noted = scratch.count
    guard length > 0, length <= Self.maxBytes, length <= escaped.count, noted <= Self.maxSlots,
      let source = escaped.baseAddress
    else { return }
    var end: Int64 = 0
    for slot in 0..<noted {
      let start = scratch.values[slot * 5]
      let stop = scratch.values[slot * 5 + 1]
      guard start >= end, stop > start, stop <= Int64(length) else { return }
      end = stop
    }
    if bytes.isEmpty {
      entries.reserveCapacity(Self.capacity)
      bytes = Array(repeating: 0, count: Self.capacity * Self.maxBytes)
      slots = Array(repeating: 0, count: Self.capacity * Self.maxSlots * 5)
    }
    let depth = min(limits.maxNestingDepth, 256)
    if limits.maxPayloadBytes != maxPayloadBytes || depth != maxDepth {
      // Found under other limits: none of them is used again.
      entries.removeAll(keepingCapacity: true)
      next = 0
      last = 0
      maxPayloadBytes = limits.maxPayloadBytes
      maxDepth = depth
    }
    // A new place until all are taken, then the oldest layout's.
    let place = next
    next = (next + 1) & (Self.capacity - 1)
    if place == entries.count { entries.append(Entry()) }
    bytes.withUnsafeMutableBytes { stored in
      stored.baseAddress.map {
        ($0 + place * Self.maxBytes).copyMemory(from: source, byteCount: length)
      }
    }
    for index in 0..<(noted * 5) {
      slots[place * Self.maxSlots * 5 + index] = scratch.values[index]
    }
    // The first bytes before the first slot, up to eight.
    let literal = min(8, noted > 0 ? Int(scratch.values[0]) : length)
    var prefix: UInt64 = 0
    for offset in 0..<literal {
      prefix |= UInt64(source.load(fromByteOffset: offset, as: UInt8.self)) << (8 * offset)
    }
    entries[place] = Entry(
      node: node, length: length, slotCount: noted, prefix: prefix,
      mask: StrictJSONReader.mask(count: literal))
    last = place
  }
}

extension BytesShapes {
  /// ``certainlyMatchedLength(_:escaped:limits:)``, answered from a layout of a payload of the
  /// same shape judged before when the payload fits one (see ``PayloadLayouts``), and otherwise
  /// by the walk, whose payload is then remembered.
  package mutating func rememberingMatchedLength(
    _ node: Int, escaped: UnsafeRawBufferPointer, limits: InputLimits
  ) -> Int? {
    if let length = layouts.matchedLength(node, escaped: escaped, limits: limits) {
      return length
    }
    // The walk reads `self`; its slots are noted outside it.
    var slots = PayloadSlots(isNoting: true)
    swap(&slots, &layouts.scratch)
    slots.removeAll()
    let length = certainlyMatchedLength(node, escaped: escaped, limits: limits, noting: &slots)
    swap(&slots, &layouts.scratch)
    if let length {
      layouts.remember(node, escaped: escaped, length: length, limits: limits)
    }
    return length
  }
}
