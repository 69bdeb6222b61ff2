import Waypoint

/// The kind of a reason, without messages that differ between `JSONDecoder` and the validator.
func kind(_ reason: DropReason) -> String {
  switch reason.code {
  case .undecodable: "undecodable at \(reason.codingPath ?? "?")"
  case .invalidPayload: "invalidPayload"
  default: reason.description
  }
}

/// Whether offline validation gave each dropped item the kind of reason the restore gave it.
///
/// `JSONDecoder` reports a number or string that does not read (`128` for an `Int8`, `"\q"`) as
/// "not valid JSON" without a coding path; the restore's report then has an empty path where
/// offline validation names the field (a documented difference, `Docs/RouteShapes.md`). Every other
/// path must be equal.
///
/// `hashOrdered` names the tags whose shapes hold a `[String: Value]`: `JSONDecoder` visits a
/// dictionary's members in hash order, which changes from run to run, so with several bad members
/// the path it reports varies (documented in `Docs/RouteShapes.md`). For those, both must be
/// `undecodable`, and the paths may differ.
func sameKinds(
  _ offline: [DroppedItem], _ restore: [DroppedItem],
  hashOrdered: (String?) -> Bool = { _ in false }
) -> Bool {
  guard offline.count == restore.count else { return false }
  return zip(offline, restore).allSatisfy { mine, theirs in
    if hashOrdered(mine.tag), mine.reason.code == .undecodable, theirs.reason.code == .undecodable {
      return true
    }
    if mine.reason.code == .undecodable, theirs.reason.code == .undecodable,
      theirs.reason.codingPath == "", theirs.reason.description.contains("not valid JSON")
    {
      return true
    }
    return kind(mine.reason) == kind(theirs.reason)
  }
}
