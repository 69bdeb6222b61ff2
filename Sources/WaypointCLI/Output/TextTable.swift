/// A table for text output: a header and rows, columns left-aligned and separated by two spaces.
/// The last column is not padded.
struct TextTable {
  /// One cell: its text, and a colour applied after padding (so that widths stay right).
  struct Cell {
    var text: String
    var color: Style.Color?

    init(_ text: String, _ color: Style.Color? = nil) {
      self.text = text
      self.color = color
    }
  }

  var header: [String]
  var rows: [[Cell]] = []

  /// The lines of the table, the header in bold when `style` is enabled.
  func render(_ style: Style) -> [String] {
    var widths = header.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.text.count)
      }
    }
    func line(_ cells: [Cell]) -> String {
      var parts: [String] = []
      for (index, cell) in cells.enumerated() {
        let isLast = index == cells.count - 1
        let padded =
          isLast
          ? cell.text : cell.text.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        parts.append(style.paint(padded, cell.color))
      }
      let joined = parts.joined(separator: "  ")
      return String(joined.reversed().drop { $0 == " " }.reversed())
    }
    let top = line(header.map { Cell($0) })
    return [style.bold(top)] + rows.map(line)
  }
}
