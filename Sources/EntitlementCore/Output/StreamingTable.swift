/// A text table printed while rows still arrive: column widths come from the first
/// `sampleSize` rows (later, longer cells push their row out of line instead of
/// holding every row in memory).
struct StreamingTable {
    let headers: [String]
    var sampleSize = 1000
    private var widths: [Int]?
    private var sample: [[String]] = []

    init(headers: [String]) { self.headers = headers }

    /// Adds a row (cells are escaped here); returns text ready to print, if any.
    mutating func append(_ row: [String]) -> String {
        let row = row.map(Terminal.escape)
        if let widths { return Self.line(row, widths) }
        sample.append(row)
        return sample.count >= sampleSize ? release() : ""
    }

    /// The rest: the header and sample if they are still held back. Empty when no row came.
    mutating func finish() -> String { widths == nil && !sample.isEmpty ? release() : "" }

    private mutating func release() -> String {
        var widths = headers.map(\.count)
        for row in sample { for (column, cell) in row.enumerated() where column < widths.count { widths[column] = max(widths[column], cell.count) } }
        self.widths = widths
        let text = Self.line(headers, widths) + sample.map { Self.line($0, widths) }.joined()
        sample = []
        return text
    }

    private static func line(_ cells: [String], _ widths: [Int]) -> String {
        var text = ""
        for (column, cell) in cells.enumerated() {
            if column > 0 { text += "  " }
            text += column == cells.count - 1 ? cell : cell.padded(to: widths[column])
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}
