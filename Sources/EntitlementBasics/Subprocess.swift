import Glibc
internal import CSystemShims
import Synchronization

/// Runs a program to completion: arguments and environment as given, bytes on
/// standard input, standard output and error captured.
///
/// Two callers run programs: the team store (git) and `refresh` (curl, for a vendor's API).
/// A plain store's reads and writes never do.
package struct Subprocess {
    package struct Result {
        package var status: Int32
        package var stdout: [UInt8]
        package var stderr: [UInt8]
        /// True when the run was stopped because it outlived its time-out.
        package var timedOut = false
        /// True when the run was stopped because its standard output grew past `outputLimit`.
        package var outputLimitReached = false
        /// True when the run was stopped through its `Cancellation`.
        package var cancelled = false

        package var succeeded: Bool { status == 0 }
        package var output: String { String(decoding: stdout, as: UTF8.self) }
        package var errorText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// A pipe whose two ends are closed on `exec`: read end first. Without the flag, a child
    /// started by another thread would inherit this run's pipe ends and keep them open, so
    /// that neither child ever saw the end of its input. (`pipe2` is not in Swift's Glibc
    /// module, so the flag is set after; `spawning` closes the gap between the two.)
    static func makePipe() -> [Int32]? {
        var ends: [Int32] = [-1, -1]
        // pipe2 with O_CLOEXEC: between a pipe() and its fcntl() another thread's child (a
        // library's Process, which our `spawning` lock does not cover) could inherit an end and
        // keep a run's pipe open, so its child never saw the end of its input.
        guard (try? systemCall("pipe2", { entitlement_pipe_cloexec(&ends) })) != nil else { return nil }
        return ends
    }

    /// Held from making a run's pipes until the child's ends are closed in this process, so
    /// that no other run's child is started in between.
    static let spawning = Mutex(())

    /// Runs `arguments[0]` (looked up in PATH). Nil when it cannot be started.
    ///
    /// The child starts under umask 077, whatever the caller's: what git creates for the tool
    /// (a clone, its `.git`, checked-out files) is private. With `timeout` (seconds), the child
    /// runs in a process group of its own, and the whole group (git and its ssh or
    /// remote helper) is killed when the time is up; the result says `timedOut`. With
    /// `outputLimit` (bytes, and a `timeout`), the child is killed as soon as its standard output
    /// passes it, so an endless answer never sits in memory; the result says `outputLimitReached`.
    /// With `cancellation`, the child also runs in a group of its own, killed when it is cancelled.
    package static func run(_ arguments: [String], environment: [String: String],
                    input: [UInt8] = [], timeout: Double? = nil, outputLimit: Int? = nil, cancellation: Cancellation? = nil) -> Result? {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let ownGroup = timeout != nil || cancellation != nil
        guard let child = spawning.withLock({ _ in spawn(arguments[0], argv, envp, ownGroup: ownGroup) }) else { return nil }
        let pid = child.pid, inPipe = child.input, outPipe = child.output, errPipe = child.error
        // Our end of the child's input never blocks: a blocking write of a big input would wait for
        // the child to read while the child waits for us to drain its output (`cat-file --batch`).
        _ = try? systemCall("fcntl") { fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK) }
        var result = Result(status: -1, stdout: [], stderr: [])
        let deadline = timeout.map { Self.monotonicSeconds() + $0 }
        // A child that exits before reading its input must not kill us with SIGPIPE.
        let previous = input.isEmpty ? nil : signal(SIGPIPE, SIG_IGN)
        defer { if let previous { signal(SIGPIPE, previous) } }
        if !pump(input: input, stdin: inPipe[1], stdout: outPipe[0], stderr: errPipe[0], deadline: deadline, limit: outputLimit,
                 cancellation: cancellation, into: &result) {
            _ = try? systemCall("kill") { kill(ownGroup ? -pid : pid, SIGKILL) }
            if !result.outputLimitReached, !result.cancelled { result.timedOut = true }
        }
        result.status = reap(pid)
        return result
    }

    /// Waits for `pid`; its exit status, or 128 + the signal number as shells report it.
    static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        _ = try? systemCall("waitpid") { waitpid(pid, &status, 0) }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Reads what `fd` holds now onto `bytes`; false once it has ended (end of file, or an
    /// error other than EAGAIN and EINTR).
    static func readAvailable(_ fd: Int32, onto bytes: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { buffer in (try? systemCall("read") { Glibc.read(fd, buffer.baseAddress!, buffer.count) }) ?? -1 }  // errno stays set
        if count > 0 { bytes += buffer[0..<count] }
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EINTR))
    }

    /// Sets `O_NONBLOCK` on each descriptor.
    static func makeNonBlocking(_ fds: [Int32]) {
        for fd in fds { _ = try? systemCall("fcntl") { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) } }
    }

    /// Makes the three pipes and starts the child on them; closes the child's ends here.
    /// Nil (everything closed) when a pipe cannot be made or the program cannot be started.
    static func spawn(_ program: String, _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?], ownGroup: Bool)
        -> (pid: pid_t, input: [Int32], output: [Int32], error: [Int32])? {
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            guard let ends = makePipe() else { pipes.joined().forEach { closeDescriptor($0) }; return nil }
            pipes.append(ends)
        }
        let (inPipe, outPipe, errPipe) = (pipes[0], pipes[1], pipes[2])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        }
        var pid: pid_t = 0
        // posix_spawn has no umask attribute: set it around the spawn (under `spawning`) and
        // put the caller's back. The tool sets every mode of its own files explicitly.
        let previousMask = umask(0o077)
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        umask(previousMask)
        closeDescriptor(inPipe[0]); closeDescriptor(outPipe[1]); closeDescriptor(errPipe[1])
        guard spawned == 0 else {
            closeDescriptor(inPipe[1]); closeDescriptor(outPipe[0]); closeDescriptor(errPipe[0])
            return nil
        }
        return (pid, inPipe, outPipe, errPipe)
    }

    /// Feeds standard input and drains both outputs at once, so no pipe ever fills and blocks.
    /// Returns false when `deadline` passed first, standard output passed `limit`, or the run
    /// was cancelled (the result says which; the pipes still open are closed).
    private static func pump(input: [UInt8], stdin: Int32, stdout: Int32, stderr: Int32, deadline: Double?, limit: Int?,
                             cancellation: Cancellation?, into result: inout Result) -> Bool {
        var written = 0
        var inputOpen = true
        if input.isEmpty { closeDescriptor(stdin); inputOpen = false }
        var open = (out: true, err: true)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open.out || open.err || inputOpen {
            var fds: [pollfd] = []
            if inputOpen { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
            if open.out { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
            if open.err { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
            var wait: Int32 = -1
            if let cancellation {
                if cancellation.isCancelled {
                    for entry in fds { closeDescriptor(entry.fd) }
                    result.cancelled = true
                    return false
                }
                wait = Cancellation.pollInterval
            }
            if let deadline {
                let left = deadline - monotonicSeconds()
                if left <= 0 {
                    for entry in fds { closeDescriptor(entry.fd) }
                    return false
                }
                wait = min(wait < 0 ? Int32.max : wait, Int32(min(left * 1000 + 1, 60_000)))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == stdin {
                    let outcome = input.withUnsafeBytes { bytes in
                        Swift.Result { () throws(SystemError) in
                            try systemCall("write") { Glibc.write(stdin, bytes.baseAddress! + written, min(bytes.count - written, 65536)) }
                        }
                    }
                    let count: Int
                    switch outcome {
                    case .success(let wrote): count = wrote
                    case .failure(let error) where error.code == EAGAIN: continue  // the pipe is full: poll again
                    case .failure: count = -1
                    }
                    if count > 0 { written += count }
                    if count <= 0 || written == input.count { closeDescriptor(stdin); inputOpen = false }
                    continue
                }
                let count = (try? buffer.withUnsafeMutableBytes { bytes throws(SystemError) in
                    try systemCall("read") { Glibc.read(entry.fd, bytes.baseAddress!, bytes.count) }
                }) ?? -1
                if count > 0 {
                    if entry.fd == stdout { result.stdout.append(contentsOf: buffer[0..<count]) } else { result.stderr.append(contentsOf: buffer[0..<count]) }
                    if let limit, result.stdout.count > limit {
                        result.outputLimitReached = true
                        if inputOpen { closeDescriptor(stdin) }
                        closeDescriptor(stdout)
                        if open.err { closeDescriptor(stderr) }
                        return false
                    }
                } else {
                    closeDescriptor(entry.fd)
                    if entry.fd == stdout { open.out = false } else { open.err = false }
                }
            }
        }
        return true
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
