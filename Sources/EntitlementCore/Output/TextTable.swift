/// A plain-text table with aligned columns; cells are escaped for the terminal.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []
    /// Colours a rendered cell (already padded); identity when colour is off.
    var decorate: (_ row: Int, _ column: Int, _ text: String) -> String = { _, _, text in text }

    init(headers: [String]) { self.headers = headers }

    mutating func append(_ row: [String]) { rows.append(row.map(Terminal.escape)) }

    func render() -> String {
        let columns = headers.count
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < columns { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ cells: [String], row: Int?) -> String {
            var parts: [String] = []
            for column in 0..<columns {
                let cell = column < cells.count ? cells[column] : ""
                let padded = column == columns - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
                parts.append(row.map { decorate($0, column, padded) } ?? padded)
            }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        return line(headers, row: nil) + rows.enumerated().map { line($0.element, row: $0.offset) }.joined()
    }
}
