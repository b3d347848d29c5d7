/// A progress bar on stderr while a command reads a whole store; only on a terminal.
struct ScanProgress {
    let label: String
    let total: Int
    /// What is counted: profiles, ids.
    let unit: String
    private var line: StatusLine

    /// `enabled` is false in a pipe and with `--quiet`: then it prints nothing at all.
    init(stream: OutputSink, label: String, total: Int, enabled: Bool, unit: String = "profiles") {
        line = StatusLine(stream: stream)
        self.label = label
        self.total = enabled ? total : 0
        self.unit = unit
    }

    /// `find [##########..........]  50%  500000/1000000 profiles`
    static func bar(label: String, done: Int, total: Int, unit: String = "profiles", width: Int = 30) -> String {
        let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
        let filled = Int(fraction * Double(width))
        let percent = Int(fraction * 100)
        return "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(percent)%  \(done)/\(total) \(unit)"
    }

    mutating func show(_ done: Int) {
        guard total > 0 else { return }
        line.draw(Self.bar(label: label, done: done, total: total, unit: unit))
    }

    mutating func clear() { line.clear() }
}
