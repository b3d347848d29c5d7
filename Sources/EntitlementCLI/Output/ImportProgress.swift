/// A one-line counter on stderr while many documents are imported; only on a terminal.
struct ImportProgress {
    var total = 0
    private var line: StatusLine

    /// `width`: the terminal's, in cells; the line is cut to fit it.
    init(stream: OutputSink, width: Int = 80) { line = StatusLine(stream: stream, width: width) }

    var enabled: Bool { line.stream.isTerminal && total > 1 }

    mutating func show(_ phase: String, _ count: Int) {
        guard enabled else { return }
        line.draw("import: \(phase) \(count)/\(total) documents")
    }

    mutating func clear() { line.clear() }
}
