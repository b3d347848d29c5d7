import Foundation
import Glibc
import Testing
import EntitlementTestSupport

/// A team store shared over the network: `git daemon` on 127.0.0.1 serving the bare
/// repository (git:// URLs, push enabled), then stopped to show an unreachable remote.
@Suite(.tags(.endToEnd), .serialized, .enabled(if: Binary.exists))
struct TeamStoreDaemonTests {
    @Test func cloneSyncAndPushOverGitDaemonThenTheRemoteGoesAway() throws {
        let team = try TeamFixture.team(of: 1)
        guard let daemon = try GitDaemon.start(serving: team.directory.path, environment: team.environment) else {
            print("skipped: git daemon is not installed (git's exec path has no git-daemon) or did not start")
            return
        }
        defer { daemon.stop() }
        let url = "git://127.0.0.1:\(daemon.port)/remote.git"
        let clone = try Binary.run(["clone", url, "--store", team.store("n1")], environment: team.environment)
        try #require(clone.exitCode == 0, "\(clone.stderr)")
        try team.identify("n1")
        // A change made over the network reaches the other store, and one made there comes back.
        #expect(try team.run(["grant", "erin", "premium", "--lifetime", "--reason", "over git://"], in: "n1").exitCode == 0)
        let push = try team.run(["sync"], in: "n1")
        #expect(push.exitCode == 0, "\(push.stderr)")
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["check", "erin", "premium", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.run(["grant", "finn", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync", "--pull-only"], in: "n1").exitCode == 0)
        #expect(try team.run(["check", "finn", "premium", "--quiet"], in: "n1").exitCode == 0)
        #expect(team.snapshot("n1") == team.snapshot("s0"))
        // The daemon stops: the network remote cannot be reached; local work stays.
        daemon.stop()
        #expect(try team.run(["grant", "gus", "premium", "--lifetime"], in: "n1").exitCode == 0)
        let head = try team.head("n1")
        let offline = try team.run(["sync"], in: "n1")
        #expect(offline.exitCode == 6)
        #expect(offline.stderr.hasPrefix("Error: cannot reach the remote 'origin'"))
        #expect(try team.head("n1") == head)
    }
}

/// `git daemon` serving a directory on 127.0.0.1, on a port the kernel picked free.
final class GitDaemon: @unchecked Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// Nil when git has no daemon or it does not answer.
    static func start(serving base: String, environment: [String: String]) throws -> GitDaemon? {
        let execPath = try Binary.runProgram("/usr/bin/env", ["git", "--exec-path"], environment: environment).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard FileManager.default.isExecutableFile(atPath: execPath + "/git-daemon") else { return nil }
        for _ in 0..<5 {
            guard let port = freePort() else { return nil }
            let process = Process()
            // The daemon itself, not `git daemon`: git's wrapper would stand between it and the signal that stops it.
            process.executableURL = URL(fileURLWithPath: execPath + "/git-daemon")
            process.arguments = ["--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1",
                                 "--port=\(port)", "--base-path=\(base)", base]
            var env = ProcessInfo.processInfo.environment
            for (key, value) in environment { env[key] = value }
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let daemon = GitDaemon(process: process, port: port)
            // Ready once it answers (a bounded number of tries, no clock).
            for _ in 0..<100 {
                let probe = try Binary.runProgram("/usr/bin/env", ["git", "ls-remote", "git://127.0.0.1:\(port)/remote.git"], environment: environment)
                if probe.exitCode == 0 { return daemon }
                if !process.isRunning { break }
                usleep(50_000)
            }
            daemon.stop()
        }
        return nil
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
    private static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
