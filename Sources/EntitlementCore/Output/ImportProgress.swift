/// A one-line counter on stderr while many documents are imported; only on a terminal.
struct ImportProgress {
    let stream: OutputSink
    var total = 0
    private var visible = false

    init(stream: OutputSink) { self.stream = stream }

    var enabled: Bool { stream.isTerminal && total > 1 }

    mutating func show(_ phase: String, _ count: Int) {
        guard enabled else { return }
        stream.write("\r\u{1B}[Kimport: \(phase) \(count)/\(total) documents")
        stream.flush()
        visible = true
    }

    mutating func clear() {
        guard visible else { return }
        stream.write("\r\u{1B}[K")
        stream.flush()
        visible = false
    }
}
