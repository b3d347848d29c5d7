import Glibc
import Synchronization
import EntitlementBasics

/// Where batch commands read: standard input, or given text in tests.
///
/// Sendable for real: the unread test text sits behind a `Mutex`; a descriptor needs none.
package final class InputSource: Sendable {
    private let fd: Int32?
    private let pending: Mutex<[UInt8]>
    let isTerminal: Bool

    package init(fileDescriptor: Int32) {
        fd = fileDescriptor
        pending = Mutex([])
        isTerminal = isatty(fileDescriptor) == 1
    }

    /// Given text, for tests; `isTerminal` makes it stand in for a person at a terminal.
    package init(text: String, isTerminal: Bool = false) {
        fd = nil
        pending = Mutex(Array(text.utf8))
        self.isTerminal = isTerminal
    }

    /// One line without its line end (an answer typed at a prompt), or nil at end of input.
    /// From a descriptor it reads byte by byte, so nothing after the line is consumed.
    func readLine() -> String? {
        guard let fd else {
            return pending.withLock { pending in
                guard !pending.isEmpty else { return nil }
                let end = pending.firstIndex(of: 0x0A) ?? pending.endIndex
                var line = pending[..<end]
                if line.last == 0x0D { line = line.dropLast() }
                defer { pending.removeSubrange(..<min(end + 1, pending.endIndex)) }
                return String(decoding: line, as: UTF8.self)
            }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            // A read error ends the input as the end of file does (the caller sees the lines so far).
            let count = (try? systemCall("read") { Glibc.read(fd, &byte, 1) }) ?? 0
            guard count > 0 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 0x0A { break }
            line.append(byte)
        }
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// The next chunk of bytes, or nil at end of input.
    func readChunk() -> [UInt8]? {
        guard let fd else {
            return pending.withLock { pending in
                guard !pending.isEmpty else { return nil }
                defer { pending = [] }
                return pending
            }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { buffer in
            (try? systemCall("read") { Glibc.read(fd, buffer.baseAddress!, buffer.count) }) ?? 0
        }
        guard count > 0 else { return nil }
        chunk.removeSubrange(count...)
        return chunk
    }

    /// At most `limit` bytes: stops at `limit` or the end of input, whichever comes first
    /// (a CGI body of CONTENT_LENGTH bytes; nothing after it is read).
    func read(upTo limit: Int) -> [UInt8] {
        guard let fd else {
            return pending.withLock { pending in
                let taken = Array(pending.prefix(limit))
                pending.removeFirst(taken.count)
                return taken
            }
        }
        var bytes = [UInt8](repeating: 0, count: max(limit, 0))
        var filled = 0
        while filled < limit {
            let count = bytes.withUnsafeMutableBytes { buffer in
                (try? systemCall("read") { Glibc.read(fd, buffer.baseAddress! + filled, limit - filled) }) ?? 0
            }
            guard count > 0 else { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// All remaining bytes.
    func readAll() -> [UInt8] {
        var all: [UInt8] = []
        while let chunk = readChunk() { all.append(contentsOf: chunk) }
        return all
    }
}
