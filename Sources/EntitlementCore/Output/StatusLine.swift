/// One line on stderr that is redrawn in place (`\r`, erase line) and erased when done.
/// The progress displays share it; callers decide whether to draw at all.
struct StatusLine {
    let stream: OutputSink
    private var visible = false

    init(stream: OutputSink) { self.stream = stream }

    mutating func draw(_ text: String) {
        stream.write("\r\u{1B}[K" + text)
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
