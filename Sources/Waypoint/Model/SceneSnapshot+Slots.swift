extension SceneSnapshot {
  /// What stands in one slot of a snapshot: a route, or one of a split view's two values.
  package enum Slot: Hashable, Sendable {
    /// A route of a stack, the selected tab, a split-view selection or the sheet.
    case route(RouteRecord)
    /// The split view's column visibility (visited whenever the snapshot has a split view).
    case columnVisibility(ColumnVisibility)
    /// The split view's preferred compact column (visited when it is set).
    case preferredCompactColumn(SplitColumn)
  }

  /// What ``mapSlots(enteringStack:_:)`` leaves in a slot.
  package enum SlotChange: Hashable, Sendable {
    /// The slot stays as it is.
    case keep
    /// Another route stands in a route's slot. A split-view value is only kept or removed: for
    /// one, this keeps it.
    case replace(RouteRecord)
    /// The slot is emptied: a route leaves its stack (the routes above it move down) or its slot;
    /// column visibility goes back to `automatic`, the preferred compact column to none.
    case remove
  }

  /// The one walk over a snapshot's slots, in the one fixed order that every reader of a snapshot
  /// follows: stacks by name (by the names' UTF-8 bytes, the document's order; each root first),
  /// the selected tab, the split view's sidebar and
  /// content selections, its column visibility and preferred compact column, then the sheet.
  ///
  /// `enterStack` is called as each named stack begins, an empty one too. `change` is called once
  /// per slot with where it stands in this snapshot (a route removed from a stack does not renumber
  /// the ones after it) and says what stays there; the snapshot with every change is returned. A walk
  /// that keeps every slot returns the snapshot unchanged without copying its stacks. Restore,
  /// prediction, encoding, repair and redaction are all built on it.
  package func mapSlots(
    enteringStack enterStack: (String) -> Void = { _ in },
    _ change: (RouteLocation, Slot) -> SlotChange
  ) -> SceneSnapshot {
    var mapped = self
    for name in stacks.keys.sorted(by: Self.precedes) {
      enterStack(name)
      let records = stacks[name] ?? []
      // Built from the first change on, so that a stack left as it is is not copied.
      var edited: [RouteRecord]?
      for (index, record) in records.enumerated() {
        let result = change(.stack(name, index: index), .route(record))
        if edited == nil {
          if case .keep = result { continue }
          edited = Array(records[..<index])
        }
        switch result {
        case .keep: edited?.append(record)
        case .replace(let other): edited?.append(other)
        case .remove: break
        }
      }
      if let edited { mapped.stacks[name] = edited }
    }
    mapped.selectedTab = Self.map(selectedTab, at: .selectedTab, change)
    if let split {
      mapped.split?.sidebarSelection = Self.map(
        split.sidebarSelection, at: .sidebarSelection, change)
      mapped.split?.contentSelection = Self.map(
        split.contentSelection, at: .contentSelection, change)
      if case .remove = change(.columnVisibility, .columnVisibility(split.columnVisibility)) {
        mapped.split?.columnVisibility = .automatic
      }
      if let column = split.preferredCompactColumn,
        case .remove = change(.preferredCompactColumn, .preferredCompactColumn(column))
      {
        mapped.split?.preferredCompactColumn = nil
      }
    }
    mapped.sheet = Self.map(sheet, at: .sheet, change)
    return mapped
  }

  /// ``mapSlots(enteringStack:_:)`` that only looks: every slot, in the walk's order.
  @inline(never)
  package func forEachSlot(
    enteringStack enterStack: (String) -> Void = { _ in },
    _ visit: (RouteLocation, Slot) -> Void
  ) {
    // The change made by a function the optimizer does not see into, not written here: the walks
    // that only look run the one compiled `mapSlots`, not a copy specialized for them (code every
    // app would carry twice). It does not outlive the call.
    withoutActuallyEscaping(visit) { visit in
      _ = mapSlots(enteringStack: enterStack, Self.keeping(visit))
    }
  }

  /// A change that visits each slot and keeps it.
  @inline(never)
  private static func keeping(_ visit: @escaping (RouteLocation, Slot) -> Void)
    -> (RouteLocation, Slot) -> SlotChange
  {
    { location, slot in
      visit(location, slot)
      return .keep
    }
  }

  private static func map(
    _ record: RouteRecord?, at location: RouteLocation,
    _ change: (RouteLocation, Slot) -> SlotChange
  ) -> RouteRecord? {
    guard let record else { return nil }
    switch change(location, .route(record)) {
    case .keep: return record
    case .replace(let other): return other
    case .remove: return nil
    }
  }
}
