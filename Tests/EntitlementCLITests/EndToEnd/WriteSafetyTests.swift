import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Concurrency and crash safety of writes, with real processes of the built binary.
@Suite(.serialized, .tags(.endToEnd))
struct WriteSafetyTests {
    /// Grants recorded in a profile, read straight from its file.
    static func grantCount(_ path: String) throws -> Int {
        guard let bytes = FileManager.default.contents(atPath: path) else { return 0 }
        let profile = try Profile(json: JSONParser.parse(Array(bytes)))
        return profile.transactions.filter(\.isManualGrant).count
    }

    /// Files being written (in `.tmp/`), and any temporary file anywhere else in the store.
    static func leftoverTemporaryFiles(_ store: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.hasPrefix(".tmp/") || $0.contains(".tmp-") }
    }

    @Test func fiftyConcurrentGrantsOnOneProfileAllLand() throws {
        try #require(Binary.exists, "build the binary first (make test does)")
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let processes = 50
        let users = ["shared-user"] + (1...10).map { "parallel-\($0)" }
        // 50 writers on one profile, and 2 each on 10 other profiles, all at once.
        let jobs = Array(repeating: "shared-user", count: processes) + users.dropFirst().flatMap { [$0, $0] }
        let codes = ConcurrentResults(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let result = try? Binary.run(["grant", jobs[index], "premium", "--duration", "1d", "--store", store, "--lock-timeout", "60",
                                          "--reason", "load test \(index)", "--actor", "tester"])
            codes.set(index, result?.exitCode ?? -1)
        }
        let successes = codes.values.enumerated().filter { jobs[$0.offset] == "shared-user" && $0.element == 0 }.count
        #expect(successes == processes)
        #expect(try Self.grantCount(store + "/profiles/shared-user.json") == successes)
        for user in users.dropFirst() {
            #expect(try Self.grantCount(store + "/profiles/\(user).json") == 2)
        }
        // Chained --duration grants: each one starts where the previous ends, so the chain
        // ends 50 days after the first began, and check reports that end.
        let profile = try Profile(json: JSONParser.parse(Array(try #require(FileManager.default.contents(atPath: store + "/profiles/shared-user.json")))))
        let grants = profile.transactions.filter(\.isManualGrant).sorted { ($0.startsAt ?? $0.purchasedAt) < ($1.startsAt ?? $1.purchasedAt) }
        for (previous, next) in zip(grants, grants.dropFirst()) {
            #expect(next.startsAt == previous.expiresAt, "\(next.transactionID) starts where \(previous.transactionID) ends")
        }
        let chainStart = try #require(grants.first.map { $0.startsAt ?? $0.purchasedAt })
        let chainEnd = chainStart.addingTimeInterval(Double(processes) * 86_400)
        #expect(grants.last?.expiresAt == chainEnd)
        let check = try Binary.run(["check", "shared-user", "--store", store, "--json"])
        #expect(check.exitCode == 0)
        #expect(try JSONParser.parse(check.stdout)["expires_at"]?.stringValue == ISODate.format(chainEnd))
        #expect(try Self.leftoverTemporaryFiles(store).isEmpty)
        for name in try FileManager.default.contentsOfDirectory(atPath: store + "/profiles") where name.hasSuffix(".json") {
            _ = try Profile(json: JSONParser.parse(Array(FileManager.default.contents(atPath: store + "/profiles/" + name)!)))
        }
    }

    @Test func grantsKilledAtRandomMomentsNeverCorruptAProfile() throws {
        try #require(Binary.exists, "build the binary first (make test does)")
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let path = store + "/profiles/crash-user.json"
        var generator = SplitMix64(seed: 20_260_115)
        var killed = 0, completed = 0
        let rounds = 200
        for round in 0..<rounds {
            let before = try Self.grantCount(path)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["grant", "crash-user", "premium", "--duration", "1d", "--store", store, "--reason", "round \(round)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(generator.next() % 30_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 } else { completed += 1 }
            // The file parses, and holds the history before, or before plus this one grant.
            let after = try Self.grantCount(path)
            #expect(after == before || after == before + 1, "round \(round): \(before) → \(after)")
        }
        // A killed writer may leave its file in .tmp/; the next writer removes it under the lock.
        #expect(try Binary.run(["grant", "crash-user", "premium", "--duration", "1d", "--store", store]).exitCode == 0)
        #expect(try Self.leftoverTemporaryFiles(store).isEmpty)
        print("crash test: \(rounds) rounds, \(killed) killed mid-run, \(completed) completed, final grants \(try Self.grantCount(path))")
    }
}

/// Results written from concurrent iterations.
final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int32]

    init(count: Int) { storage = Array(repeating: -1, count: count) }

    func set(_ index: Int, _ value: Int32) { lock.lock(); storage[index] = value; lock.unlock() }

    var values: [Int32] { lock.lock(); defer { lock.unlock() }; return storage }
}
