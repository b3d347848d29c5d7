#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let result = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    if writeError == nil { writeError = String(cString: strerror(errno)) }
                    return
                }
                offset += result
            }
        }
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

    /// Given text, for tests; `isTerminal` makes it stand in for a person at a terminal.
    public init(text: String, isTerminal: Bool = false) {
        fd = nil
        pending = Array(text.utf8)
        self.isTerminal = isTerminal
    }

    /// One line without its line end, or nil at end of input; the rest stays for later reads.
    public func readLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                var line = pending[..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                defer { pending.removeSubrange(...newline) }
                return String(decoding: line, as: UTF8.self)
            }
            guard let chunk = readFromSource() else {
                guard !pending.isEmpty else { return nil }
                defer { pending = [] }
                return String(decoding: pending, as: UTF8.self)
            }
            pending.append(contentsOf: chunk)
        }
    }

    /// The next chunk of bytes, or nil at end of input.
    public func readChunk() -> [UInt8]? {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        return readFromSource()
    }

    /// New bytes from the descriptor; given text is all in `pending` from the start.
    private func readFromSource() -> [UInt8]? {
        guard let fd else { return nil }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            chunk.removeSubrange(count...)
            return chunk
        }
    }

    /// All remaining bytes.
    public func readAll() -> [UInt8] {
        var all: [UInt8] = []
        while let chunk = readChunk() { all.append(contentsOf: chunk) }
        return all
    }
}
