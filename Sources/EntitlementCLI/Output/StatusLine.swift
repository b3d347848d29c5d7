
/// One line on stderr that is redrawn in place (`\r`, erase line) and erased when done.
/// The progress displays share it; callers decide whether to draw at all.
///
/// The line never reaches the terminal's last column (`width` cells, counted by
/// `CellWidth`): a line that wraps could not be redrawn or erased in place.
struct StatusLine {
    let stream: OutputSink
    /// The terminal's width in cells.
    let width: Int
    private var visible = false

    init(stream: OutputSink, width: Int = 80) {
        self.stream = stream
        self.width = width
    }

    mutating func draw(_ text: String) {
        stream.write("\r\u{1B}[K" + Self.fitted(text, width: width))
        stream.flush()
        visible = true
    }

    mutating func clear() {
        guard visible else { return }
        stream.write("\r\u{1B}[K")
        stream.flush()
        visible = false
    }

    /// `text` cut to at most `width - 1` cells (with `…` where it was cut).
    static func fitted(_ text: String, width: Int) -> String {
        let room = max(width - 1, 1)
        guard CellWidth.of(text) > room else { return text }
        return CellWidth.prefix(text, cells: room - 1) + "…"
    }
}
