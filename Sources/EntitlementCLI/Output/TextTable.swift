import EntitlementBasics

/// A plain-text table with aligned columns; cells are escaped for the terminal.
///
/// Given a width (a terminal's), it fits: first every column uses its short form (relative
/// dates dropped), then columns are dropped in their declared order, and when even the
/// columns that are never dropped do not fit, the rows are printed as vertical records,
/// as psql's expanded mode does. Without a width (a pipe, a file) nothing is shortened.
/// Widths are counted in terminal cells (`CellWidth`). `TableLayout` is the decision, so a
/// streamed table (`StreamingTable`) can print later rows the way its first rows chose.
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
    func render(width: Int? = nil) -> String { render(layout(width: width)) }

    /// How the rows fit `width` (nil: in full, never shortened), by the rule above.
    func layout(width: Int?) -> TableLayout {
        let all = Array(columns.indices)
        func fitted(_ visible: [Int], short: Bool) -> TableLayout {
            TableLayout(visible: visible, short: short, widths: widths(visible: visible, short: short), width: width)
        }
        let full = fitted(all, short: false)
        guard let width, full.lineWidth > width else { return full }
        var visible = all
        if fitted(visible, short: true).lineWidth <= width { return fitted(visible, short: true) }
        let droppable = all.filter { columns[$0].dropRank != nil }.sorted { columns[$0].dropRank! < columns[$1].dropRank! }
        for column in droppable {
            visible.removeAll { $0 == column }
            let layout = fitted(visible, short: true)
            if layout.lineWidth <= width { return layout }
        }
        var vertical = full
        vertical.isVertical = true
        return vertical
    }

    /// The rows as `layout` says, with the header row first (numbered records when vertical).
    func render(_ layout: TableLayout, firstRecord: Int = 1) -> String {
        var out = layout.isVertical || !showsHeaders ? "" : layout.line(layout.visible.map { columns[$0].header }, decorate: nil)
        for row in rows.indices { out += render(row: row, layout, record: firstRecord + row) }
        return out
    }

    /// One row as `layout` says: a line, or a vertical record numbered `record`.
    func render(row: Int, _ layout: TableLayout, record: Int) -> String {
        if layout.isVertical {
            let labelWidth = columns.map { CellWidth.of($0.header) }.max() ?? 0
            let title = "-[ RECORD \(record) ]"
            var out = title + String(repeating: "-", count: max((layout.width ?? 0) - CellWidth.of(title), 1)) + "\n"
            for column in columns.indices {
                let label = columns[column].header
                out += label + String(repeating: " ", count: labelWidth - CellWidth.of(label)) + " | " + decorate(row, column, cell(row, column, short: false)) + "\n"
            }
            return out
        }
        return layout.line(layout.visible.map { cell(row, $0, short: layout.short) }) { decorate(row, $0, $1) }
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
}
