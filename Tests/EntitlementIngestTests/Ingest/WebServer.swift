import EntitlementTestSupport
import Foundation
import Testing

/// A real web server on 127.0.0.1 running `entitlement webhook` as CGI through a two-line
/// wrapper script, for end-to-end tests. Stopped (and waited for) by `stop()` or on release.
/// Unchecked Sendable: after `init` only `post` (which touches no state) runs concurrently.
final class WebServer: @unchecked Sendable {
    enum Kind { case lighttpd, busybox }

    let port: Int
    let directory: String
    /// The store the webhook writes to: `post` waits for its spool to empty after a 200.
    let store: String
    private var pid: pid_t = 0

    static var lighttpdPath: String? { ["/usr/sbin/lighttpd", "/usr/bin/lighttpd"].first { FileManager.default.isExecutableFile(atPath: $0) } }
    static var busyboxPath: String? { ["/usr/bin/busybox", "/bin/busybox"].first { FileManager.default.isExecutableFile(atPath: $0) } }
    static var curlPath: String? { ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) } }
    static var available: Bool { lighttpdPath != nil && curlPath != nil && Binary.exists }

    /// Starts `kind` with the webhook of `store` at `/hooks/entitlement/VENDOR` (lighttpd) or
    /// `/cgi-bin/entitlement/VENDOR` (busybox).
    init(_ kind: Kind = .lighttpd, directory: String, store: String, secrets: String) throws {
        self.directory = directory
        self.store = store
        port = Self.freePort()
        let cgi = directory + "/cgi-bin"
        try FileManager.default.createDirectory(atPath: cgi, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/www", withIntermediateDirectories: true)
        let wrapper = cgi + "/entitlement"
        try "#!/bin/sh\nexec '\(Binary.path)' webhook --store '\(store)' --secrets '\(secrets)'\n".write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        switch kind {
        case .lighttpd:
            // The wrapper runs under /bin/sh rather than being exec'd: a file just written can be
            // held open for writing by a child another test forks meanwhile (ETXTBSY, a 500).
            let config = """
                server.modules = ("mod_cgi", "mod_alias")
                server.bind = "127.0.0.1"
                server.port = \(port)
                server.document-root = "\(directory)/www"
                server.errorlog = "\(directory)/error.log"
                server.breakagelog = "\(directory)/cgi-stderr.log"
                server.max-request-size = 4096
                alias.url = ("/hooks/" => "\(cgi)/")
                $HTTP["url"] =~ "^/hooks/" { cgi.assign = ("" => "/bin/sh") }

                """
            try config.write(toFile: directory + "/lighttpd.conf", atomically: true, encoding: .utf8)
            pid = try Self.spawn(Self.lighttpdPath!, ["-D", "-f", directory + "/lighttpd.conf"])
        case .busybox:
            pid = try Self.spawn(Self.busyboxPath!, ["httpd", "-f", "-p", "127.0.0.1:\(port)", "-h", directory])
        }
        try waitUntilListening()
    }

    deinit { stop() }

    /// What the webhook wrote to standard error (lighttpd's `server.breakagelog`).
    var cgiLog: String { readFile(directory + "/cgi-stderr.log") ?? "" }

    /// SIGTERM, then up to 5 s to exit, then SIGKILL; always reaped.
    func stop() { Self.terminate(&pid) }

    /// Stops the server `pid` as `stop()` does, and sets it to 0.
    static func terminate(_ pid: inout pid_t) {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { pid = 0; return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        pid = 0
    }

    /// Starts a server with no blocked signals and default handlers. (Foundation's `Process`
    /// passes on the test runner's blocked mask, and a server that never sees SIGCHLD or
    /// SIGTERM neither reaps its CGI children nor stops.)
    static func spawn(_ program: String, _ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGCHLD, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard result == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot start \(program): \(result)"]) }
        return pid
    }

    /// POSTs `body` with curl; returns the status code and the answer's body.
    /// With `waitingForTheApply` (the default) a 200 returns once the spool is empty again.
    func post(_ path: String, body: String, headers: [String: String] = [:], waitingForTheApply: Bool = true) throws -> (status: Int, body: String) {
        let bodyFile = directory + "/request-\(UUID().uuidString)"
        try body.write(toFile: bodyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bodyFile) }
        var arguments = ["-s", "-S", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}", "-H", "Content-Type: application/json",
                         "--data-binary", "@" + bodyFile]
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let output = try Self.run(Self.curlPath!, arguments)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        if status == 200, waitingForTheApply { waitForTheApply() }
        return (status, lines.dropLast().joined(separator: "\n"))
    }

    /// The webhook answers once the request is spooled and applies it after the answer: waits
    /// (at most 20 s) until the spool is empty, so that a test reads the store as applied.
    func waitForTheApply() {
        let spool = store + "/ingest/spool"
        for _ in 0..<400 {
            let waiting = ((try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []).filter { $0.hasSuffix(".json") }
            if waiting.isEmpty { return }
            usleep(50_000)
        }
    }

    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A port the kernel just handed out on 127.0.0.1 (closed again for the server to take).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Up to 10 s for the server to accept connections.
    private func waitUntilListening() throws {
        try Self.waitUntilListening(port: port, pid: &pid)
    }

    /// Up to 10 s for the server `pid` to accept connections on `port`; stopped and thrown
    /// about when it does not (or exits first).
    static func waitUntilListening(port: Int, pid: inout pid_t) throws {
        for _ in 0..<200 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { pid = 0; break }
            usleep(50_000)
        }
        terminate(&pid)
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the web server did not start on port \(port)"])
    }
}
