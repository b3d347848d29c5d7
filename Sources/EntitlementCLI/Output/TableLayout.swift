/// How a `TextTable` prints at a width: which columns, in short form or not, how wide; or
/// vertical records. Decided once from the rows at hand and reused for rows that come later.
struct TableLayout {
    /// The columns shown, in order.
    var visible: [Int]
    /// Whether cells use their short forms (relative dates dropped).
    var short: Bool
    /// The width of each visible column, in terminal cells.
    var widths: [Int]
    /// The terminal's width; nil in a pipe, where nothing is ever cut.
    var width: Int?
    /// psql's expanded layout: one block per row.
    var isVertical = false

    /// Cells of every visible column and the two spaces between them.
    var lineWidth: Int { widths.reduce(0, +) + 2 * max(visible.count - 1, 0) }

    /// One aligned line of `cells` (one per visible column). On a terminal, a cell wider than
    /// its column (a row that came after the widths were chosen) is cut with `…`, so the line
    /// still fits; in a pipe it pushes the rest of its line out instead. `decorate` gets the
    /// column index and the padded cell.
    func line(_ cells: [String], decorate: ((_ column: Int, _ text: String) -> String)?) -> String {
        var parts: [String] = []
        var used = 0
        for (position, column) in visible.enumerated() {
            var text = cells[position]
            let isLast = position == visible.count - 1
            if let width {
                let room = isLast ? max(width - used, 1) : widths[position]
                if CellWidth.of(text) > room { text = CellWidth.prefix(text, cells: room - 1) + "…" }
            }
            let padded = isLast ? text : text + String(repeating: " ", count: max(widths[position] - CellWidth.of(text), 0))
            used += CellWidth.of(padded) + 2
            parts.append(decorate.map { $0(column, padded) } ?? padded)
        }
        var text = parts.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}
