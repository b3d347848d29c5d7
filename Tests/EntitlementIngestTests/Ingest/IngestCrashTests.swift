import Foundation
import Testing
@testable import EntitlementIngest
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

/// Crash safety: `webhook` (as CGI, the built binary) and `ingest` are killed with
/// SIGKILL at seeded random moments. After one more `ingest`, every event answered 200 is
/// applied, none twice, every profile reads whole, and `verify` is clean. The kill timings are
/// drawn from fixed seeds; ENTITLEMENT_STRESS=1 runs more seeds and events (by hand:
/// `ENTITLEMENT_STRESS=1 swift test --filter IngestCrashTests`; `make stress` runs the team-store suites).
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: Binary.exists, "needs the built binary"))
struct IngestCrashTests {
    typealias F = IngestFixtures
    static var stress: Bool { ProcessInfo.processInfo.environment["ENTITLEMENT_STRESS"] == "1" }
    static let seeds: [UInt64] = stress ? [1, 2, 3, 4, 5, 6] : [20_260_126]
    static var eventCount: Int { stress ? 120 : 30 }

    /// Runs the binary with `environment` and `stdin`, SIGKILLs it after `delay` µs (unless it is
    /// done); returns what it wrote to standard output and whether the kill cut it short.
    static func runKilled(_ arguments: [String], environment: [String: String], stdin: String, after delay: UInt32) throws -> (stdout: String, killed: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(Double(delay) / 1_000_000)
        while process.isRunning, Date() < deadline { usleep(200) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationReason == .uncaughtSignal)
    }

    @Test(arguments: seeds)
    func killedWebhooksAndIngestsLoseNothingAndApplyOnce(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        var random = SplitMix64(seed: seed)
        var acknowledged: Set<String> = []
        var killed = 0
        // Kill points spread over a whole run as long as one takes on this machine, now: event
        // k0 goes through untouched and is timed.
        var window: UInt32 = 0
        for index in 0..<Self.eventCount {
            // Each event once or twice (a vendor's retry), to a customer of its own or a shared one.
            let user = "user\(index % 7)"
            let body = F.revenueCat("INITIAL_PURCHASE", id: "k\(index)", at: Int64(index % 20), user: user, transaction: "t\(index)", original: "t\(index)")
            for _ in 0..<(random.next() % 3 == 0 ? 2 : 1) {
                let environment = F.cgi(body).merging(["PATH": "/usr/bin:/bin"]) { $1 }
                let started = Date()
                let run = try Self.runKilled(["webhook", "revenuecat", "--store", store, "--secrets", secrets], environment: environment, stdin: body,
                                             after: index == 0 ? 10_000_000 : UInt32(random.next() % UInt64(window)))
                if index == 0 { window = max(1_000, UInt32(Date().timeIntervalSince(started) * 1_500_000)) }
                if run.killed { killed += 1 }
                if run.stdout.hasPrefix("Status: 200") { acknowledged.insert("k\(index)") }
            }
            // Now and then an ingest, killed too.
            if random.next() % 5 == 0 {
                _ = try Self.runKilled(["ingest", "--store", store, "--secrets", secrets], environment: ["PATH": "/usr/bin:/bin"], stdin: "",
                                       after: UInt32(random.next() % UInt64(window)))
            }
        }
        let spooled = (try? FileManager.default.contentsOfDirectory(atPath: store + "/" + Spool.directory).count) ?? 0
        print("crash test, seed \(seed): \(killed) runs killed mid-way, \(acknowledged.count) of \(Self.eventCount) events answered 200, \(spooled) waiting")
        let final = try Binary.run(["ingest", "--store", store, "--secrets", secrets, "--json"])
        #expect(final.exitCode == 0, "\(final.stdout) \(final.stderr)")
        #expect(killed > 0, "no run was cut short: the delays are too long for this machine")
        #expect(!acknowledged.isEmpty)
        // Every acknowledged event is in the ledger and in its customer's profile, exactly once.
        var transactions: [String: Int] = [:]
        for index in 0..<7 {
            guard let text = readFile(store + "/profiles/user\(index).json") else { continue }
            let profile = try Profile(json: JSONParser.parse(Array(text.utf8)))
            for transaction in profile.transactions { transactions[transaction.transactionID, default: 0] += 1 }
        }
        for id in acknowledged.sorted() {
            let ledger = store + "/" + EventLedger.relativePath(vendor: .revenuecat, id: id)
            #expect(FileManager.default.fileExists(atPath: ledger), "\(id) was answered 200 but is not in the ledger")
            #expect(transactions["t" + id.dropFirst()] == 1, "\(id): transaction applied \(transactions["t" + id.dropFirst()] ?? 0) times")
        }
        #expect(transactions.values.allSatisfy { $0 == 1 })
        #expect(try Binary.run(["verify", "--store", store]).exitCode == 0)
        #expect(try Binary.run(["ingest", "--status", "--store", store, "--json"]).stdout.contains("\"waiting\": 0"))
        // Replaying everything: what the ledger holds is a duplicate, the rest (never answered 200,
        // or killed before spooling) is applied now; nothing twice.
        let recorded = (0..<Self.eventCount).filter { FileManager.default.fileExists(atPath: store + "/" + EventLedger.relativePath(vendor: .revenuecat, id: "k\($0)")) }.count
        let replay = (0..<Self.eventCount).map { F.revenueCat("INITIAL_PURCHASE", id: "k\($0)", at: Int64($0 % 20), user: "user\($0 % 7)",
                                                             transaction: "t\($0)", original: "t\($0)") }
        let again = try Binary.run(["ingest", "--stdin", "--json", "--store", store, "--secrets", secrets], stdin: replay.joined(separator: "\n") + "\n")
        #expect(again.stdout.contains("\"applied\": \(Self.eventCount - recorded)"), "\(again.stdout)")
        #expect(again.stdout.contains("\"duplicate\": \(recorded)"), "\(again.stdout)")
        #expect(try Binary.run(["verify", "--store", store]).exitCode == 0)
    }
}
