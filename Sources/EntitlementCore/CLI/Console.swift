import Glibc

/// Where a command writes: a file descriptor, buffered, or memory for tests.
public final class OutputStream: @unchecked Sendable {
    private var buffer: [UInt8] = []
    private let fd: Int32?
    /// Whether this stream is a terminal (decides colour and progress).
    public let isTerminal: Bool
    /// The first write error (for example a full disk), so the run can fail with exit 4.
    public private(set) var writeError: String?

    /// A stream over a file descriptor (1 or 2).
    public init(fileDescriptor: Int32) {
        fd = fileDescriptor
        isTerminal = isatty(fileDescriptor) == 1
        buffer.reserveCapacity(64 * 1024)
    }

    /// A stream that keeps what is written, for tests.
    public init(capturingAsTerminal isTerminal: Bool = false) {
        fd = nil
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 64 * 1024 { flush() }
    }

    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Writes out what is buffered (a no-op for captured streams).
    public func flush() {
        guard let fd, !buffer.isEmpty else { return }
        let result = buffer.withUnsafeBytes { raw in
            Result { () throws(SystemError) in
                var offset = 0
                while offset < raw.count {
                    offset += try syscall("write") { Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
                }
            }
        }
        // A closed pipe is EPIPE here (the executable ignores SIGPIPE), so it exits 4 like a full disk.
        if case .failure(let error) = result, writeError == nil { writeError = error.message }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Everything written so far (captured streams only).
    public var text: String { String(decoding: buffer, as: UTF8.self) }
}

/// Where batch commands read lines: standard input, or given text in tests.
public final class InputStream: @unchecked Sendable {
    private let fd: Int32?
    private var pending: [UInt8]
    public let isTerminal: Bool

    public init(fileDescriptor: Int32) {
        fd = fileDescriptor
        pending = []
        isTerminal = isatty(fileDescriptor) == 1
    }

    public init(text: String) {
        fd = nil
        pending = Array(text.utf8)
        isTerminal = false
    }

    /// The next chunk of bytes, or nil at end of input.
    public func readChunk() -> [UInt8]? {
        guard let fd else {
            guard !pending.isEmpty else { return nil }
            defer { pending = [] }
            return pending
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
