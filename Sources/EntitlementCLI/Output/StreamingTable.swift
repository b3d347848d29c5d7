/// A text table printed while rows still arrive, fitted like `TextTable`: the layout
/// (columns shown, short forms, widths, or vertical records) is chosen from the first
/// `sampleSize` rows, then every later row is printed that way at once, so memory holds
/// one sample, never every row. On a terminal a later, wider cell is cut with `…`; in a
/// pipe it pushes its line out of alignment instead (nothing is ever cut there).
struct StreamingTable {
    var sampleSize = 1000
    private var table: TextTable
    private let width: Int?
    private var layout: TableLayout?
    /// Rows printed so far (numbers the vertical records).
    private var printed = 0

    /// `width`: the terminal's (nil in a pipe). `decorate` colours a padded cell; it gets the
    /// row's cells, as appended (escaped), the column and the padded text.
    init(columns: [TextTable.Column], width: Int?, showsHeaders: Bool = true,
         decorate: @escaping (_ cells: [String], _ column: Int, _ text: String) -> String = { _, _, text in text }) {
        table = TextTable(columns: columns)
        table.showsHeaders = showsHeaders
        self.width = width
        self.decorate = decorate
    }

    private let decorate: (_ cells: [String], _ column: Int, _ text: String) -> String

    /// Adds a row (escaped here; `short` as in `TextTable.append`); returns text ready to print, if any.
    mutating func append(_ row: [String], short: [Int: String] = [:]) -> String {
        table.append(row, short: short)
        if let layout {
            defer { clearRows() }
            printed += 1
            return decorated.render(row: 0, layout, record: printed)
        }
        return table.rows.count >= sampleSize ? release() : ""
    }

    /// The rest: the sample, if it is still held back. Empty when no row came.
    mutating func finish() -> String { layout == nil && !table.rows.isEmpty ? release() : "" }

    private mutating func release() -> String {
        let layout = table.layout(width: width)
        self.layout = layout
        let text = decorated.render(layout, firstRecord: printed + 1)
        printed += table.rows.count
        clearRows()
        return text
    }

    /// The table with `decorate` bound to its rows.
    private var decorated: TextTable {
        var copy = table
        let rows = table.rows
        let decorate = self.decorate
        copy.decorate = { row, column, text in decorate(rows[row], column, text) }
        return copy
    }

    private mutating func clearRows() {
        table.rows.removeAll(keepingCapacity: true)
        table.shortForms.removeAll(keepingCapacity: true)
    }
}
