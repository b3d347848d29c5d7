import Glibc
import Synchronization

extension Subprocess {
    /// A child kept running for several questions and answers (`git cat-file --batch`, asked
    /// for the trees of one level of folders, then for the next from their ids), so one
    /// process serves them all.
    ///
    /// Each `exchange` writes a request while reading the child's outputs, so neither pipe
    /// fills and blocks the other side, until the answer read so far is complete. `finish`
    /// closes the child's input and waits for it.
    package final class Session {
        private let pid: pid_t
        private let stdin: Int32, stdout: Int32, stderr: Int32
        private var inputOpen = true
        private var outputsOpen = (out: true, err: true)
        private var errorBytes: [UInt8] = []
        /// What `finish` returned, once it has run.
        private var finished: Result?
        private let previousPipeHandler: (@convention(c) (Int32) -> Void)?

        /// Starts `arguments[0]` (looked up in PATH); nil when it cannot be started.
        package init?(_ arguments: [String], environment: [String: String]) {
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            guard let child = spawning.withLock({ _ in spawn(arguments[0], argv, envp, ownGroup: false) }) else { return nil }
            (pid, stdin, stdout, stderr) = (child.pid, child.input[1], child.output[0], child.error[0])
            for fd in [stdin, stdout, stderr] { _ = try? systemCall("fcntl") { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) } }
            // A child that exits before reading a request must not kill us with SIGPIPE.
            previousPipeHandler = signal(SIGPIPE, SIG_IGN)
        }

        deinit { if finished == nil { _ = finish() } }

        /// Writes `request`, then reads standard output into `answer` until `isComplete(answer)`
        /// holds. False when the child closed its output (or its input) first.
        package func exchange(_ request: [UInt8], answer: inout [UInt8], until isComplete: ([UInt8]) -> Bool) -> Bool {
            guard finished == nil else { return false }
            var written = 0
            var buffer = [UInt8](repeating: 0, count: 65536)
            while written < request.count || !isComplete(answer) {
                guard inputOpen, outputsOpen.out else { return false }
                var fds = [pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)]
                if outputsOpen.err { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
                if written < request.count { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
                if poll(&fds, nfds_t(fds.count), -1) < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                for entry in fds where entry.revents != 0 {
                    if entry.fd == stdin {
                        let offset = written
                        let count = request.withUnsafeBytes { bytes in
                            (try? systemCall("write") { Glibc.write(stdin, bytes.baseAddress! + offset, min(bytes.count - offset, 65536)) }) ?? -1
                        }
                        if count > 0 { written += count } else if errno != EAGAIN, errno != EINTR { inputOpen = false }
                        continue
                    }
                    let count = buffer.withUnsafeMutableBytes { bytes in
                        (try? systemCall("read") { Glibc.read(entry.fd, bytes.baseAddress!, bytes.count) }) ?? -1
                    }
                    if count > 0 {
                        if entry.fd == stdout { answer += buffer[0..<count] } else { errorBytes += buffer[0..<count] }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        if entry.fd == stdout { outputsOpen.out = false } else { outputsOpen.err = false }
                    }
                }
            }
            return true
        }

        /// Closes the child's input, reads the rest of its outputs, and waits for it. Its
        /// result holds what standard output had left after the last exchange. Called again,
        /// it returns the same result.
        package func finish() -> Result {
            if let finished { return finished }
            var result = Result(status: -1, stdout: [], stderr: [])
            closeDescriptor(stdin)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while outputsOpen.out || outputsOpen.err {
                var fds: [pollfd] = []
                if outputsOpen.out { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
                if outputsOpen.err { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
                if poll(&fds, nfds_t(fds.count), -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for entry in fds where entry.revents != 0 {
                    let count = buffer.withUnsafeMutableBytes { bytes in
                        (try? systemCall("read") { Glibc.read(entry.fd, bytes.baseAddress!, bytes.count) }) ?? -1
                    }
                    if count > 0 {
                        if entry.fd == stdout { result.stdout += buffer[0..<count] } else { errorBytes += buffer[0..<count] }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        if entry.fd == stdout { outputsOpen.out = false } else { outputsOpen.err = false }
                    }
                }
            }
            closeDescriptor(stdout); closeDescriptor(stderr)
            var status: Int32 = 0
            _ = try? systemCall("waitpid") { waitpid(pid, &status, 0) }
            signal(SIGPIPE, previousPipeHandler)
            result.status = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            result.stderr = errorBytes
            finished = result
            return result
        }
    }
}
