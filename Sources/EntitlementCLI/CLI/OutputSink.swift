import Glibc
import Synchronization
import EntitlementBasics

/// Where a command writes: a file descriptor, buffered, or memory for tests.
///
/// Sendable for real: the buffer and the first write error sit behind a `Mutex`, so
/// threads that answer parts of `check --stdin` may share one sink. A write takes the
/// lock once and copies its bytes; the cost is noise beside the copy itself.
package final class OutputSink: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var writeError: String?
        /// The reader went away (EPIPE): later output is dropped.
        var closed = false
        /// `finish` ended the output: later output is dropped.
        var finished = false
    }

    private let state = Mutex(State())
    private let fd: Int32?
    /// Drops everything written (`--quiet`).
    private let discards: Bool
    /// Whether this sink is a terminal (decides colour and progress).
    let isTerminal: Bool

    /// A sink over a file descriptor (1 or 2).
    package init(fileDescriptor: Int32) {
        fd = fileDescriptor
        discards = false
        isTerminal = isatty(fileDescriptor) == 1
        state.withLock { $0.buffer.reserveCapacity(64 * 1024) }
    }

    /// A sink that keeps what is written, for tests.
    package init(capturingAsTerminal isTerminal: Bool = false) {
        fd = nil
        discards = false
        self.isTerminal = isTerminal
    }

    /// A sink that drops what is written: standard output under `--quiet`.
    package init(discarding: Void) {
        fd = nil
        discards = true
        isTerminal = false
    }

    /// The first write error (for example a full disk), so the run can fail with exit 4.
    /// A closed pipe is not one: see `isClosed`.
    var writeError: String? { state.withLock { $0.writeError } }

    /// True once a write found no reader (EPIPE: `entitlement find | head`). Output is then
    /// dropped, long commands stop early, and the run ends quietly with exit 141, as a
    /// program killed by SIGPIPE would (the executable ignores the signal, so that a write
    /// to the store is never cut short by it).
    var isClosed: Bool { state.withLock { $0.closed } }

    func write(_ text: String) {
        if discards { return }
        state.withLock { state in
            state.buffer.append(contentsOf: text.utf8)
            if state.buffer.count >= 64 * 1024 { flush(&state) }
        }
    }

    /// Like `write(_ sink:)`: a large run (a batch's answers for one chunk of input) is
    /// written straight from `bytes`, after what is buffered, with no copy.
    func write(bytes: [UInt8]) {
        if discards { return }
        state.withLock { state in
            if let fd, bytes.count >= 64 * 1024 {
                flush(&state)
                bytes.withUnsafeBytes { writeOut($0, to: fd, &state) }
            } else {
                state.buffer.append(contentsOf: bytes)
                if state.buffer.count >= 64 * 1024 { flush(&state) }
            }
        }
    }

    /// Writes what `sink` holds: into the buffer when it is small; when it is large (a
    /// `status --json` of thousands of transactions), straight from the sink after what
    /// is buffered, with no copy.
    func write(_ sink: ByteSink) {
        if discards { return }
        sink.withBytes { bytes in
            state.withLock { state in
                if let fd, bytes.count >= 64 * 1024 {
                    flush(&state)
                    writeOut(UnsafeRawBufferPointer(bytes), to: fd, &state)
                } else {
                    state.buffer.append(contentsOf: bytes)
                    if state.buffer.count >= 64 * 1024 { flush(&state) }
                }
            }
        }
    }

    /// Ends this output for good while the process goes on: what is buffered is written, then
    /// the descriptor is pointed at /dev/null, which closes the reader's end of the pipe (a CGI's
    /// web server ends the response there). Later output is dropped. Nothing for other sinks.
    func finish() {
        state.withLock { state in
            flush(&state)
            guard let fd else { return }
            state.finished = true
            guard let null = try? systemCall("open", { open("/dev/null", O_WRONLY | O_CLOEXEC) }) else { return }
            _ = try? systemCall("dup2") { dup2(null, fd) }
            _ = try? systemCall("close") { close(null) }
        }
    }

    /// Writes out what is buffered (a no-op for captured sinks).
    func flush() {
        state.withLock { flush(&$0) }
    }

    private func flush(_ state: inout State) {
        if state.closed || state.finished { state.buffer.removeAll(keepingCapacity: true) }
        guard let fd, !state.buffer.isEmpty else { return }
        state.buffer.withUnsafeBytes { writeOut(UnsafeRawBufferPointer($0), to: fd, &state) }
        state.buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `raw` to `fd` whole, noting the first error (or the reader gone) in `state`.
    private func writeOut(_ raw: UnsafeRawBufferPointer, to fd: Int32, _ state: inout State) {
        guard !state.closed, raw.count > 0 else { return }
        let result = Result { () throws(SystemError) in
            var offset = 0
            while offset < raw.count {
                offset += try systemCall("write") { Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
        }
        // A closed pipe is EPIPE here (the executable ignores SIGPIPE): the reader is done,
        // which is not an error to report. Any other failure (a full disk) is one, exit 4.
        if case .failure(let error) = result {
            if error.code == EPIPE {
                state.closed = true
            } else if state.writeError == nil {
                state.writeError = error.message
            }
        }
    }

    /// Everything written so far (captured sinks only).
    package var text: String { state.withLock { String(decoding: $0.buffer, as: UTF8.self) } }
}
