import Waypoint

/// The kind of a reason, without messages that differ between `JSONDecoder` and the validator.
func kind(_ reason: DropReason) -> String {
  switch reason {
  case .undecodable(let path, _): "undecodable at \(path)"
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
func sameKinds(_ offline: [DroppedItem], _ restore: [DroppedItem]) -> Bool {
  guard offline.count == restore.count else { return false }
  return zip(offline, restore).allSatisfy { mine, theirs in
    if case .undecodable(let path, _) = mine.reason,
      case .undecodable("", let message) = theirs.reason,
      message.contains("not valid JSON")
    {
      _ = path
      return true
    }
    return kind(mine.reason) == kind(theirs.reason)
  }
}
