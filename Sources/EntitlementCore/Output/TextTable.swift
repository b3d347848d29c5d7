/// A plain-text table with aligned columns; cells are escaped for the terminal.
///
/// Given a width (a terminal's), it fits: first every column uses its short form (relative
/// dates dropped), then columns are dropped in their declared order, and when even the
/// columns that are never dropped do not fit, the rows are printed as vertical records,
/// as psql's expanded mode does. Without a width (a pipe, a file) nothing is shortened.
/// Widths are counted in terminal cells (`CellWidth`).
struct TextTable {
    /// One column: its header, and how it gives way on a narrow terminal.
    struct Column {
        var header: String
        /// When columns are dropped to fit, lower ranks go first; nil: never dropped.
        var dropRank: Int?

        init(_ header: String, dropRank: Int? = nil) {
            self.header = header
            self.dropRank = dropRank
        }
    }

    var columns: [Column]
    var rows: [[String]] = []
    /// Per row, the short form of cells that have one (column index to text).
    var shortForms: [[Int: String]] = []
    /// Whether the header row is printed (`--no-headers` turns it off).
    var showsHeaders = true
    /// Colours a rendered cell (already padded); identity when colour is off.
    var decorate: (_ row: Int, _ column: Int, _ text: String) -> String = { _, _, text in text }

    init(headers: [String]) { columns = headers.map { Column($0) } }

    init(columns: [Column]) { self.columns = columns }

    var headers: [String] { columns.map(\.header) }

    /// Appends a row; `short` holds shorter forms of some cells, used on a narrow terminal.
    mutating func append(_ row: [String], short: [Int: String] = [:]) {
        rows.append(row.map(Terminal.escape))
        shortForms.append(short.mapValues(Terminal.escape))
    }

    /// The table, fitted to `width` cells when one is given.
    func render(width: Int? = nil) -> String {
        let all = Array(columns.indices)
        guard let width else { return render(visible: all, short: false) }
        if lineWidth(visible: all, short: false) <= width { return render(visible: all, short: false) }
        var visible = all
        if lineWidth(visible: visible, short: true) <= width { return render(visible: visible, short: true) }
        let droppable = all.filter { columns[$0].dropRank != nil }.sorted { columns[$0].dropRank! < columns[$1].dropRank! }
        for column in droppable {
            visible.removeAll { $0 == column }
            if lineWidth(visible: visible, short: true) <= width { return render(visible: visible, short: true) }
        }
        return vertical(width: width)
    }

    private func cell(_ row: Int, _ column: Int, short: Bool) -> String {
        if short, let text = shortForms[row][column] { return text }
        return column < rows[row].count ? rows[row][column] : ""
    }

    private func widths(visible: [Int], short: Bool) -> [Int] {
        visible.map { column in
            rows.indices.reduce(showsHeaders ? CellWidth.of(columns[column].header) : 0) { max($0, CellWidth.of(cell($1, column, short: short))) }
        }
    }

    private func lineWidth(visible: [Int], short: Bool) -> Int {
        widths(visible: visible, short: short).reduce(0, +) + 2 * max(visible.count - 1, 0)
    }

    private func render(visible: [Int], short: Bool) -> String {
        let widths = widths(visible: visible, short: short)
        func line(_ cells: [String], row: Int?) -> String {
            var parts: [String] = []
            for (position, column) in visible.enumerated() {
                let text = cells[position]
                let padded = position == visible.count - 1 ? text : text + String(repeating: " ", count: max(widths[position] - CellWidth.of(text), 0))
                parts.append(row.map { decorate($0, column, padded) } ?? padded)
            }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        var out = showsHeaders ? line(visible.map { columns[$0].header }, row: nil) : ""
        for row in rows.indices { out += line(visible.map { cell(row, $0, short: short) }, row: row) }
        return out
    }

    /// psql's expanded layout: one block per row, `HEADER | value` per column, in full.
    private func vertical(width: Int) -> String {
        let labelWidth = columns.map { CellWidth.of($0.header) }.max() ?? 0
        var out = ""
        for row in rows.indices {
            let title = "-[ RECORD \(row + 1) ]"
            out += title + String(repeating: "-", count: max(width - CellWidth.of(title), 1)) + "\n"
            for column in columns.indices {
                let label = columns[column].header
                out += label + String(repeating: " ", count: labelWidth - CellWidth.of(label)) + " | " + decorate(row, column, cell(row, column, short: false)) + "\n"
            }
        }
        return out
    }
}
