/// A tree for text output, drawn with box-drawing characters:
///
/// ```
/// root
/// ├── child
/// │   └── grandchild
/// └── last child
/// ```
struct TreeNode: Hashable, Sendable {
  var label: String
  var children: [TreeNode] = []

  init(_ label: String, _ children: [TreeNode] = []) {
    self.label = label
    self.children = children
  }

  /// The tree's lines, this node's label first.
  func render() -> [String] {
    var lines = [label]
    for (index, child) in children.enumerated() {
      let isLast = index == children.count - 1
      let childLines = child.render()
      lines.append((isLast ? "└── " : "├── ") + childLines[0])
      lines += childLines.dropFirst().map { (isLast ? "    " : "│   ") + $0 }
    }
    return lines
  }
}
