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
            makeNonBlocking([stdin, stdout, stderr])
            // A child that exits before reading a request must not kill us with SIGPIPE.
            previousPipeHandler = signal(SIGPIPE, SIG_IGN)
        }

        deinit { if finished == nil { _ = finish() } }

        /// Writes `request`, then reads standard output into `answer` until `isComplete(answer)`
        /// holds. False when the child closed its output (or its input) first.
        package func exchange(_ request: [UInt8], answer: inout [UInt8], until isComplete: ([UInt8]) -> Bool) -> Bool {
            guard finished == nil else { return false }
            var written = 0
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
                    drain(entry.fd, stdoutOnto: &answer)
                }
            }
            return true
        }

        /// Reads what one output holds now: standard output onto `stdoutOnto`, standard error
        /// kept for `finish`; notes the output's end.
        private func drain(_ fd: Int32, stdoutOnto bytes: inout [UInt8]) {
            if fd == stdout {
                if !readAvailable(fd, onto: &bytes) { outputsOpen.out = false }
            } else if !readAvailable(fd, onto: &errorBytes) {
                outputsOpen.err = false
            }
        }

        /// Closes the child's input, reads the rest of its outputs, and waits for it. Its
        /// result holds what standard output had left after the last exchange. Called again,
        /// it returns the same result.
        package func finish() -> Result {
            if let finished { return finished }
            var result = Result(status: -1, stdout: [], stderr: [])
            closeDescriptor(stdin)
            while outputsOpen.out || outputsOpen.err {
                var fds: [pollfd] = []
                if outputsOpen.out { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
                if outputsOpen.err { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
                if poll(&fds, nfds_t(fds.count), -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for entry in fds where entry.revents != 0 { drain(entry.fd, stdoutOnto: &result.stdout) }
            }
            closeDescriptor(stdout); closeDescriptor(stderr)
            result.status = reap(pid)
            signal(SIGPIPE, previousPipeHandler)
            result.stderr = errorBytes
            finished = result
            return result
        }
    }
}
