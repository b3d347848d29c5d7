/// A progress bar on stderr while a command reads a whole store; only on a terminal.
struct ScanProgress {
    let label: String
    let total: Int
    /// What is counted: profiles, ids.
    let unit: String
    private var line: StatusLine

    /// `enabled` is false in a pipe and with `--quiet`: then it prints nothing at all.
    /// `width`: the terminal's, in cells (the bar shrinks to fit it).
    init(stream: OutputSink, label: String, total: Int, enabled: Bool, unit: String = "profiles", width: Int = 80) {
        line = StatusLine(stream: stream, width: width)
        self.label = label
        self.total = enabled ? total : 0
        self.unit = unit
    }

    /// `find [##########..........]  50%  500000/1000000 profiles`, fitted to `lineWidth` cells:
    /// the bar is at most `width` cells and shrinks to leave the rest of the line room; below
    /// 5 cells it is left out, and what still does not fit is cut by `StatusLine`.
    static func bar(label: String, done: Int, total: Int, unit: String = "profiles", width: Int = 30, lineWidth: Int = 80) -> String {
        let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
        let percent = Int(fraction * 100)
        let counts = "\(percent)%  \(done)/\(total) \(unit)"
        // label, " [", bar, "] ", counts, and the last column left free.
        let room = min(width, lineWidth - 1 - CellWidth.of(label) - 4 - CellWidth.of(counts))
        guard room >= 5 else { return "\(label) \(counts)" }
        let filled = Int(fraction * Double(room))
        return "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: room - filled))] \(counts)"
    }

    mutating func show(_ done: Int) {
        guard total > 0 else { return }
        line.draw(Self.bar(label: label, done: done, total: total, unit: unit, lineWidth: line.width))
    }

    mutating func clear() { line.clear() }
}
