/// An object of a ``JSONNode`` being changed by a migration step, members addressed by key as
/// `JSONDecoder` reads them (the first of duplicate keys wins). Members not addressed stay as
/// written, in their order.
package struct JSONObjectEdit {
  private(set) var members: [JSONNode.Member]

  /// `nil` when the node is not an object.
  package init?(_ node: JSONNode) {
    guard case .object(let members) = node else { return nil }
    self.members = members
  }

  package var node: JSONNode { .object(members) }

  /// The value of the first member whose key reads as `key`. Setting replaces that member's value,
  /// or appends a member.
  package subscript(key: String) -> JSONNode? {
    get { members.first { $0.key == key }?.value }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue {
          members[index].value = newValue
        } else {
          members.removeAll { $0.key == key }
        }
      } else if let newValue {
        members.append(JSONNode.Member(rawKey: JSONNode.raw(for: key), value: newValue))
      }
    }
  }

  /// Moves the value of `from` to the key `to`, in `from`'s place; members under `to` go (the value
  /// moved there replaces them), and so do further members under `from`. Nothing happens without a
  /// member under `from`.
  package mutating func rename(_ from: String, to: String) {
    guard from != to, let index = members.firstIndex(where: { $0.key == from }) else { return }
    var renamed = members[index]
    renamed.rawKey = JSONNode.raw(for: to)
    members[index] = renamed
    members = members.enumerated().compactMap { offset, member in
      if offset == index { return member }
      let key = member.key
      return key == from || key == to ? nil : member
    }
  }
}
