import Glibc
import Synchronization

/// Where batch commands read: standard input, or given text in tests.
///
/// Sendable for real: the unread test text sits behind a `Mutex`; a descriptor needs none.
public final class InputSource: Sendable {
    private let fd: Int32?
    private let pending: Mutex<[UInt8]>
    public let isTerminal: Bool

    public init(fileDescriptor: Int32) {
        fd = fileDescriptor
        pending = Mutex([])
        isTerminal = isatty(fileDescriptor) == 1
    }

    public init(text: String) {
        fd = nil
        pending = Mutex(Array(text.utf8))
        isTerminal = false
    }

    /// The next chunk of bytes, or nil at end of input.
    public func readChunk() -> [UInt8]? {
        guard let fd else {
            return pending.withLock { pending in
                guard !pending.isEmpty else { return nil }
                defer { pending = [] }
                return pending
            }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { buffer in
            (try? syscall("read") { Glibc.read(fd, buffer.baseAddress!, buffer.count) }) ?? 0
        }
        guard count > 0 else { return nil }
        chunk.removeSubrange(count...)
        return chunk
    }

    /// All remaining bytes.
    public func readAll() -> [UInt8] {
        var all: [UInt8] = []
        while let chunk = readChunk() { all.append(contentsOf: chunk) }
        return all
    }
}
