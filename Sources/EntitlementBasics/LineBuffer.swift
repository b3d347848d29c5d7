/// Splits streamed input into lines for every `--stdin` (`check`, `grant`), in time linear in the input:
/// each byte is examined once, however the lines fall across chunks.
///
/// A line longer than `keep` bytes keeps only its first `keep` bytes, enough to report
/// it as too long, so one endless line cannot exhaust memory either.
package struct LineBuffer {
    /// Bytes kept of one line: the longest valid id (4,096 bytes), a CR, and one more.
    static let defaultKeep = 4096 + 2

    package let keep: Int
    private var pending: [UInt8] = []
    /// Bytes examined so far: equals the input length (the linear-time property tests count it).
    private(set) var bytesExamined = 0

    package init(keep: Int = LineBuffer.defaultKeep) { self.keep = keep }

    /// The lines completed by `chunk`, without their newlines.
    package mutating func feed(_ chunk: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            bytesExamined += newline + 1 - start
            if pending.isEmpty {
                lines.append(chunk[start..<min(newline, start + keep)])
            } else {
                append(chunk[start..<newline])
                lines.append(pending[...])
                pending = []
            }
            start = newline + 1
        }
        bytesExamined += chunk.endIndex - start
        append(chunk[start...])
        return lines
    }

    /// The last line, if the input did not end with a newline.
    package mutating func finish() -> ArraySlice<UInt8>? {
        defer { pending = [] }
        return pending.isEmpty ? nil : pending[...]
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) {
        let room = keep - pending.count
        if room > 0 { pending.append(contentsOf: bytes.prefix(room)) }
    }
}
