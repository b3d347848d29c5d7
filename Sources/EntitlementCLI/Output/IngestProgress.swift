
/// A progress bar on stderr while `ingest` works through many requests; only on a terminal.
struct IngestProgress {
    var total = 0
    private var line: StatusLine

    init(stream: OutputSink, width: Int = 80) { line = StatusLine(stream: stream, width: width) }

    var enabled: Bool { line.stream.isTerminal && total > 1 }

    /// `ingest [#####.....] 120/400 requests`.
    mutating func show(_ done: Int) {
        guard enabled else { return }
        let cells = 20, filled = min(cells, done * cells / max(total, 1))
        line.draw("ingest [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: cells - filled))] \(done)/\(total) requests")
    }

    mutating func clear() { line.clear() }
}
