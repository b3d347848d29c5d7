import Foundation
import Glibc
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// FIFOs, links, modes and owners, leftovers of killed writers, closed pipes.
@Suite(.tags(.endToEnd), .serialized)
struct StoreHardeningTests {
    let directory = TemporaryDirectory()

    func grantedStore() -> String {
        let root = directory.path + "/store"
        #expect(runCLI(["init", "--store", root]).exitCode == 0)
        #expect(runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        return root
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o7777
    }

    func replaceWithFIFO(_ path: String) {
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
    }

    /// The bulk grant's read-ahead is a hint: over a missing file, a FIFO, a folder, a link
    /// and a profile it returns without hanging, and reads still see every file as it was.
    @Test func readAheadSkipsWhatItCannotReadAndChangesNothing() throws {
        let root = grantedStore()
        let profile = root + "/profiles/alice.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: profile))
        let fifo = root + "/profiles/fifo.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(symlink(profile, root + "/profiles/link.json") == 0)
        let fileSystem = FileSystem.system
        fileSystem.prefetch([root + "/profiles/missing.json", fifo, root + "/profiles", root + "/profiles/link.json", profile])
        #expect(try fileSystem.readFile(profile) == Array(before))
        #expect(throws: EntitlementError.self) { try fileSystem.readFile(fifo) }
        #expect(try fileSystem.readFile(root + "/profiles/missing.json") == nil)
    }

    @Test(arguments: ["profile", "config", "index", "scan", "lock"])
    func aFIFOInTheStoreIsRefusedWithoutHanging(_ place: String) throws {
        guard Binary.exists else { return }
        let root = grantedStore()
        let profileID = try EntitlementStore(root: root).loadProfile(userID: "alice")!.profileID!
        var arguments = ["status", "alice", "--store", root]
        switch place {
        case "profile": replaceWithFIFO(root + "/profiles/alice.json")
        case "config": replaceWithFIFO(root + "/config.json")
        case "index":
            replaceWithFIFO(root + "/index/profile-id/" + ProfileFileName.name(for: profileID))
            arguments = ["status", "--profile-id", profileID, "--store", root]
        case "scan":
            replaceWithFIFO(root + "/profiles/zed.json")
            arguments = ["status", "--profile-id", "no-such-profile", "--store", root]
        default:
            replaceWithFIFO(root + "/.lock")
            arguments = ["grant", "alice", "premium", "--duration", "7d", "--store", root]
        }
        let result = try BoundedRun.run(arguments, seconds: 10)
        #expect(!result.timedOut, "\(place): the tool hung")
        #expect(result.exitCode == 4, "\(place): \(result.stderr)")
        #expect(result.stderr.contains("not a regular file"), "\(place): \(result.stderr)")
    }

    @Test func newFilesAreOwnerOnlyAndATeamModeIsTakenFromTheStore() {
        let root = grantedStore()
        #expect(mode(root) == 0o700)
        #expect(mode(root + "/config.json") == 0o600)
        #expect(mode(root + "/profiles") == 0o700)
        #expect(mode(root + "/profiles/alice.json") == 0o600)
        #expect(mode(root + "/.lock") == 0o600)
        chmod(root + "/config.json", 0o660)
        chmod(root, 0o2770)
        #expect(runCLI(["grant", "carol", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        #expect(mode(root + "/profiles/carol.json") == 0o660)
    }

    @Test(arguments: [(mode_t(0o644), mode_t(0o640)), (0o666, 0o660), (0o604, 0o600), (0o400, 0o600), (0o2777, 0o660)])
    func newFilesNeverGetPermissionsForOthers(config: mode_t, expected: mode_t) {
        let root = grantedStore()
        chmod(root + "/config.json", config)
        #expect(runCLI(["grant", "carol", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        #expect(mode(root + "/profiles/carol.json") == expected)
        chmod(root + "/config.json", 0o600)
    }

    @Test func aRewriteKeepsModeAndOwner() {
        let root = grantedStore()
        let path = root + "/profiles/alice.json"
        chmod(path, 0o640)
        let owned = geteuid() == 0 && chown(path, 1234, 1234) == 0
        #expect(runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        #expect(mode(path) == 0o640)
        if owned {
            var status = stat()
            lstat(path, &status)
            #expect(status.st_uid == 1234 && status.st_gid == 1234)
        }
    }

    @Test func aReadOnlyFileIsNotReplaced() {
        let root = grantedStore()
        let path = root + "/profiles/alice.json"
        chmod(path, 0o444)
        let before = readFile(path)
        let result = runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("read-only"))
        #expect(readFile(path) == before)
    }

    @Test(arguments: [".lock", "profiles", "index", "profiles/alice.json"])
    func symbolicLinksInsideTheStoreAreRefused(_ entry: String) throws {
        let root = grantedStore()
        let outside = directory.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let path = root + "/" + entry
        if entry == "profiles/alice.json" {
            // A linked profile file is refused when read.
            try FileManager.default.moveItem(atPath: path, toPath: outside + "/moved")
            symlink(outside + "/moved", path)
            #expect(runCLI(["status", "alice", "--store", root]).stderr.contains("symbolic link"))
        }
        if entry == ".lock" {
            try FileManager.default.moveItem(atPath: path, toPath: outside + "/moved")
            symlink(outside + "/moved", path)
        } else if entry != "profiles/alice.json" {
            try FileManager.default.removeItem(atPath: outside)
            try FileManager.default.moveItem(atPath: path, toPath: outside)
            symlink(outside, path)
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: outside).sorted()
        // bob is new, so his index entry must be written; the index is a cache, so refusing it is a warning.
        let user = entry == "profiles/alice.json" ? "alice" : "bob"
        let result = runCLI(["grant", user, "premium", "--duration", "7d", "--store", root])
        #expect(result.exitCode == (entry == "index" ? 0 : 4), "\(entry): \(result.stderr)")
        #expect(result.stderr.contains("symbolic link"), "\(entry): \(result.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: outside).sorted() == before, "\(entry): wrote through the link")
    }

    @Test func staleStagedFilesOfKilledWritersAreRemovedUnderTheLock() throws {
        let root = grantedStore()
        try FileManager.default.createDirectory(atPath: root + "/.tmp", withIntermediateDirectories: true)
        for index in 0..<5 { writeFile(root + "/.tmp/alice.json.999\(index)-1", "partial") }
        #expect(runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/.tmp").isEmpty)
    }

    @Test func aCommittedJournalIsReplayedByTheNextWriter() throws {
        let root = grantedStore()
        let staged = root + "/.tmp/config.json.1-1"
        let newConfig = #"{"entitlements": {"gold": {"products": ["g"]}}, "schema_version": 1}"# + "\n"
        writeFile(staged, newConfig)
        writeFile(root + "/.journal", #"{"renames": [{"from": ".tmp/config.json.1-1", "to": "config.json"}], "schema_version": 1}"#)
        #expect(runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        #expect(readFile(root + "/config.json") == newConfig)
        #expect(!FileManager.default.fileExists(atPath: root + "/.journal"))
    }

    @Test func aJournalNamingPathsOutsideTheStoreIsRefused() {
        let root = grantedStore()
        writeFile(root + "/.journal", #"{"renames": [{"from": ".tmp/x", "to": "../escape"}], "schema_version": 1}"#)
        let result = runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("outside the store"))
    }

    /// A reader that went away (`| head`) ends the run quietly, as git does: no message,
    /// and 141, the status a shell gives a program killed by SIGPIPE (so pipefail sees it).
    @Test func aClosedPipeEndsQuietlyWith141() throws {
        guard Binary.exists else { return }
        let root = grantedStore()
        for _ in 0..<3 { _ = runCLI(["grant", "alice", "premium", "--duration", "1d", "--store", root]) }
        for arguments in [["history", "alice", "--json"], ["find", "--output", "csv"], ["status", "alice"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = arguments + ["--store", root]
            let pipe = Pipe()
            let errors = Pipe()
            process.standardOutput = pipe
            process.standardError = errors
            try pipe.fileHandleForReading.close()  // the reader is gone before the first write
            try process.run()
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationReason == .exit, "\(arguments)")
            #expect(process.terminationStatus == 141, "\(arguments)")
            #expect(stderr.isEmpty, "\(arguments): \(stderr)")
        }
    }

    /// A `status --json` larger than the output buffer is written straight from its render
    /// buffer: all of it, the same bytes as the buffered path gives, and a reader already gone
    /// still ends the run quietly with 141.
    @Test func aLargeStatusIsWrittenWholeAndStopsQuietlyAtAClosedPipe() throws {
        guard Binary.exists else { return }
        let root = grantedStore()
        let purchases = (0..<1_500).map { index in
            UnitTests.Fixture.purchase("c\(index)", product: "com.example.coins", type: .consumablePurchase, from: "2025-03-01T00:00:00Z", to: nil)
        }
        let profile = UnitTests.Fixture.profile(purchases, user: "heavy")
        try Data(JSONWriter().bytes(profile.json)).write(to: URL(fileURLWithPath: EntitlementStore(root: root).profilePath(for: "heavy")))
        let arguments = ["status", "heavy", "--json", "--at", "2026-01-15T12:00:00Z", "--store", root]
        let buffered = runCLI(arguments)
        #expect(buffered.exitCode == 0)
        #expect(buffered.stdout.utf8.count > 64 * 1024, "large enough for the direct write")
        for readerGone in [false, true] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = arguments
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            if readerGone { try output.fileHandleForReading.close() }
            try process.run()
            let written = readerGone ? Data() : output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == (readerGone ? 141 : 0), "reader gone: \(readerGone)")
            #expect(stderr.isEmpty, "\(stderr)")
            if !readerGone { #expect(String(decoding: written, as: UTF8.self) == buffered.stdout) }
        }
    }

    /// Through a shell, as people meet it: `status --json | head -c 100` prints its 100 bytes,
    /// nothing on stderr, and pipefail reports 141.
    @Test func headClosingThePipeIsSilentInAShell() throws {
        guard Binary.exists, programAvailable("bash") else { return }
        let root = grantedStore()
        for _ in 0..<200 { _ = runCLI(["grant", "alice", "premium", "--duration", "1d", "--store", root]) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = #"set -o pipefail; "$1" history alice --json --store "$2" | head -c 100 >/dev/null; echo "status $?""#
        process.arguments = ["bash", "-c", script, "bash", Binary.path, root]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stdout == "status 141\n")
        #expect(stderr.isEmpty, "\(stderr)")
    }
}
