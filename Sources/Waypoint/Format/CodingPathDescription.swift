/// Renders a `codingPath` the way people read it: `stacks.main[2].tag`, `profile.userId`.
package enum CodingPathDescription {
  package static func dotted(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      }
    }
    return text
  }
}
