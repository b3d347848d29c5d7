import EntitlementBasics

/// A plain-text table with aligned columns; cells are escaped for the terminal.
///
/// Given a width (a terminal's), it fits: first every column uses its short form (relative
/// dates dropped), then columns are dropped in their declared order (a column with a
/// `minimumWidth` is first cut, its cells ending in `…`), and when even the
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
        /// Set on a column that is cut (its cells end in `…`) down to this many cells before it
        /// is dropped: a column worth keeping even in part (history's REASON and BY).
        var minimumWidth: Int?

        init(_ header: String, dropRank: Int? = nil, minimumWidth: Int? = nil) {
            self.header = header
            self.dropRank = dropRank
            self.minimumWidth = minimumWidth
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
            if columns[column].minimumWidth != nil, let cut = cut(fitted(visible, short: true), to: width) { return cut }
            visible.removeAll { $0 == column }
            let layout = fitted(visible, short: true)
            if layout.lineWidth <= width { return layout }
        }
        var vertical = full
        vertical.isVertical = true
        return vertical
    }

    /// `layout` with its cuttable columns (`minimumWidth`) narrowed, lowest drop rank first,
    /// until the line fits `width`; nil when even at their minimum it does not.
    private func cut(_ layout: TableLayout, to width: Int) -> TableLayout? {
        var layout = layout
        var excess = layout.lineWidth - width
        let cuttable = layout.visible.indices.filter { columns[layout.visible[$0]].minimumWidth != nil }
            .sorted { (columns[layout.visible[$0]].dropRank ?? .max) < (columns[layout.visible[$1]].dropRank ?? .max) }
        for position in cuttable where excess > 0 {
            let spare = layout.widths[position] - max(columns[layout.visible[position]].minimumWidth!, CellWidth.of(columns[layout.visible[position]].header))
            let taken = min(excess, max(spare, 0))
            layout.widths[position] -= taken
            excess -= taken
        }
        return excess <= 0 ? layout : nil
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
            // On a terminal a long value wraps onto continuation lines under itself, as psql's
            // wrapped format does, so no line is wider than the terminal (a pipe gets it whole).
            let room = layout.width.map { max($0 - labelWidth - 3, 8) }
            for column in columns.indices {
                let label = columns[column].header
                let pieces = Self.wrapped(cell(row, column, short: false), cells: room)
                for (index, piece) in pieces.enumerated() {
                    let head = index == 0 ? label + String(repeating: " ", count: labelWidth - CellWidth.of(label)) : String(repeating: " ", count: labelWidth)
                    out += head + " | " + decorate(row, column, piece) + "\n"
                }
            }
            return out
        }
        return layout.line(layout.visible.map { cell(row, $0, short: layout.short) }) { decorate(row, $0, $1) }
    }

    /// `text` cut into pieces of at most `cells` cells, whole characters each; one piece when nil.
    static func wrapped(_ text: String, cells: Int?) -> [String] {
        guard let cells, CellWidth.of(text) > cells else { return [text] }
        var pieces: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            var piece = CellWidth.prefix(String(rest), cells: cells)
            if piece.isEmpty { piece = String(rest.first!) }  // one character wider than the room
            pieces.append(piece)
            rest = rest.dropFirst(piece.count)
        }
        return pieces
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
