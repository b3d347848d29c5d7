/// A one-line counter on stderr while many documents are imported; only on a terminal.
struct ImportProgress {
    var total = 0
    private var line: StatusLine

    init(stream: OutputSink) { line = StatusLine(stream: stream) }

    var enabled: Bool { line.stream.isTerminal && total > 1 }

    mutating func show(_ phase: String, _ count: Int) {
        guard enabled else { return }
        line.draw("import: \(phase) \(count)/\(total) documents")
    }

    mutating func clear() { line.clear() }
}
