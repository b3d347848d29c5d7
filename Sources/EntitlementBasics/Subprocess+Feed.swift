import Glibc
import Synchronization

/// A run whose standard input is produced while the child runs: gigabytes for
/// `git fast-import` that never sit in memory at once, as `Subprocess.run`'s `input` would.
extension Subprocess {
    /// Where a producer writes the child's standard input: bytes are buffered and sent a
    /// chunk at a time, draining the child's outputs meanwhile, so neither side blocks the other.
    package struct Feed {
        fileprivate let stdin: Int32, stdout: Int32, stderr: Int32
        fileprivate var buffer: [UInt8] = []
        fileprivate var result = Result(status: -1, stdout: [], stderr: [])
        fileprivate var outputsOpen = (out: true, err: true)
        fileprivate var failed = false
        static let chunk = 1 << 20

        package mutating func write(_ bytes: [UInt8]) {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.chunk { send() }
        }

        package mutating func write(_ text: String) { write(Array(text.utf8)) }

        /// Sends the buffer; a child that stopped reading (it failed) makes later writes no-ops.
        fileprivate mutating func send() {
            var written = 0
            defer { buffer.removeAll(keepingCapacity: true) }
            while !failed, written < buffer.count {
                var fds = [pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)]
                if outputsOpen.out { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
                if outputsOpen.err { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
                if poll(&fds, nfds_t(fds.count), -1) < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    break
                }
                for entry in fds.dropFirst() where entry.revents != 0 { drain(entry.fd) }
                guard fds[0].revents != 0 else { continue }
                let offset = written
                let count = buffer.withUnsafeBytes { buffer in (try? systemCall("write") { Glibc.write(stdin, buffer.baseAddress! + offset, min(buffer.count - offset, 65536)) }) ?? -1 }  // errno stays set
                if count > 0 { written += count } else if count < 0, errno == EAGAIN || errno == EINTR { continue } else { failed = true }
            }
        }

        /// Reads what one output holds now (or notes its end).
        fileprivate mutating func drain(_ fd: Int32) {
            if fd == stdout {
                if !Subprocess.readAvailable(fd, onto: &result.stdout) { outputsOpen.out = false }
            } else if !Subprocess.readAvailable(fd, onto: &result.stderr) {
                outputsOpen.err = false
            }
        }
    }

    /// Runs `arguments[0]` with standard input written by `produce`; nil when it cannot start.
    /// An error `produce` throws kills the child and is rethrown.
    package static func feeding<Failure: Error>(_ arguments: [String], environment: [String: String],
                                                _ produce: (inout Feed) throws(Failure) -> Void) throws(Failure) -> Result? {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        guard let child = spawning.withLock({ _ in spawn(arguments[0], argv, envp, ownGroup: false) }) else { return nil }
        makeNonBlocking([child.input[1], child.output[0], child.error[0]])
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        var feed = Feed(stdin: child.input[1], stdout: child.output[0], stderr: child.error[0])
        var thrown: Failure?
        do { try produce(&feed) } catch { thrown = error }
        if thrown == nil { feed.send() } else { _ = try? systemCall("kill") { kill(child.pid, SIGKILL) } }
        closeDescriptor(child.input[1])
        // The rest of both outputs, blocking now that nothing more is written.
        for fd in [child.output[0], child.error[0]] { _ = try? systemCall("fcntl") { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) } }
        while feed.outputsOpen.out { feed.drain(child.output[0]) }
        while feed.outputsOpen.err { feed.drain(child.error[0]) }
        closeDescriptor(child.output[0]); closeDescriptor(child.error[0])
        let status = reap(child.pid)
        if let thrown { throw thrown }
        feed.result.status = status
        return feed.result
    }
}
