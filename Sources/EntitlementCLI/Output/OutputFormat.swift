/// `--output FORMAT`: how commands that print records print them.
enum OutputFormat: String, CaseIterable, Sendable {
    /// Aligned columns for people, fitted to the terminal.
    case table
    /// One JSON document (the command's `--json` shape).
    case json
    /// One compact JSON object per record and line.
    case jsonl
    /// RFC 4180: comma-separated, quoted where needed, CRLF line ends.
    case csv
    /// Tab-separated; tabs, newlines and backslashes in values escaped as \t, \n, \\.
    case tsv

    var isJSON: Bool { self == .json || self == .jsonl }
}
