import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementStore
@testable import EntitlementIngest
import EntitlementTestSupport

/// `ingest --recover stripe` (the built binary) SIGKILLed mid-run, then run again over the same
/// window: nothing is half-applied or applied twice, and the rerun finishes the work, so the
/// store ends as a clean run leaves it (the same profiles, byte for byte, and the same ledger).
/// Stripe's event list is played by `FakeVendorAPI` (three pages, newest first), which can hold
/// a page's answer until the test has killed the process.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: Binary.exists && WebServer.curlPath != nil, "needs the built binary and curl"))
struct RecoverKillTests {
    static let count = 90, perPage = 30
    static let since = "2026-03-01T00:00:00Z", until = "2026-03-20T00:00:00Z"
    static let start: Int64 = 1_772_323_200
    static let seeds: [UInt64] = [20_261_128, 7, 42]

    /// Event `index`: subscription `sub_K<index>` of customer `cus_K<index % 9>`, created a minute after the one before.
    static func event(_ index: Int) -> String {
        let subscription = VendorRefreshTests.fixture("import/stripe/subscription-active.json")
            .replacingOccurrences(of: "sub_Active01", with: "sub_K\(index)").replacingOccurrences(of: "cus_Active01", with: "cus_K\(index % 9)")
        return #"{"id": "evt_K\#(index)", "object": "event", "type": "customer.subscription.updated", "created": \#(start + Int64(index) * 60), "livemode": true, "data": {"object": \#(subscription)}}"#
    }

    /// The API with its pages; `hold` (when set) keeps the last page's answer until it is signalled.
    final class Events: @unchecked Sendable {
        let setup: VendorRefreshTests.Setup
        let hold = DispatchSemaphore(value: 0)
        let holding = NSLock()
        var holds = false

        init() throws {
            setup = try VendorRefreshTests.Setup()
            setup.api.on("GET", "/v1/events", handler: { [self] request in
                let page: Int
                switch request.query["starting_after"] {
                case nil: page = 0
                case "evt_K\(RecoverKillTests.count - RecoverKillTests.perPage)": page = 1
                case "evt_K\(RecoverKillTests.count - 2 * RecoverKillTests.perPage)": page = 2
                default: return .status(400)
                }
                if page == 2, holding.withLock({ holds }) { _ = hold.wait(timeout: .now() + 60) }
                let newest = RecoverKillTests.count - 1 - page * RecoverKillTests.perPage
                let items = (0..<RecoverKillTests.perPage).map { RecoverKillTests.event(newest - $0) }
                return .json(#"{"object": "list", "url": "/v1/events", "has_more": \#(page < 2), "data": [\#(items.joined(separator: ","))]}"#)
            })
        }

        var arguments: [String] {
            ["ingest", "--recover", "stripe", "--since", RecoverKillTests.since, "--until", RecoverKillTests.until, "--json",
             "--api-base", setup.api.base, "--store", setup.store, "--secrets", setup.secrets]
        }
    }

    /// Starts the binary and SIGKILLs it as soon as `kill` says so (unless it ended first), then
    /// calls `killed` (its curl, orphaned, may still wait for an answer); true when it was killed.
    static func run(_ arguments: [String], killed: () -> Void = {}, killWhen kill: () -> Bool) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning, !kill() { usleep(200) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        killed()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    /// The profiles (bytes) and the ledger (event ids' paths; a record's bytes hold its received time).
    static func state(_ store: String) -> (profiles: [String: Data], ledger: Set<String>) {
        func files(_ directory: String) -> [String] {
            (FileManager.default.enumerator(atPath: store + "/" + directory)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }
        }
        var profiles: [String: Data] = [:]
        for path in files("profiles") { profiles[path] = FileManager.default.contents(atPath: store + "/profiles/" + path) }
        return (profiles, Set(files(EventLedger.directory)))
    }

    static func finish(_ events: Events) throws -> JSONValue {
        let rerun = try Binary.run(events.arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(rerun.exitCode == 0, "\(rerun.stdout)\(rerun.stderr)")
        return try JSONParser.parse(rerun.stdout)
    }

    @Test func aKilledRecoveryIsFinishedByTheNextRunAndEndsAsACleanRun() throws {
        let clean = try Events()
        let started = Date()
        #expect(try !Self.run(clean.arguments) { false })
        let window = Date().timeIntervalSince(started)
        let expected = Self.state(clean.setup.store)
        #expect(expected.ledger.count == Self.count && expected.profiles.count == 9)

        // Held on the last page: every page is fetched before anything is applied, so nothing is.
        let held = try Events()
        held.holding.withLock { held.holds = true }
        let release = {
            held.holding.withLock { held.holds = false }
            held.hold.signal()
        }
        #expect(try Self.run(held.arguments, killed: release) { held.setup.api.requests(to: "/v1/events").count == 3 })
        #expect(Self.state(held.setup.store).ledger.isEmpty && Self.state(held.setup.store).profiles.isEmpty)
        let answer = try Self.finish(held)
        #expect(answer["new"] == .int(Self.count) && answer["already_applied"] == .int(0), "\(answer)")
        #expect(Self.state(held.setup.store) == expected)

        // Killed while applying: with the batch's files staged in .tmp/ (before the commit
        // point: the rerun applies it all), and with its journal in place (after it: the rerun
        // replays the journal, then finds every event in the ledger).
        for (marker, committed) in [(EntitlementStore.stagingDirectory, false), (EntitlementStore.journalFileName, true)] {
            let events = try Events()
            let path = events.setup.store + "/" + marker
            let killed = try Self.run(events.arguments) {
                marker == EntitlementStore.stagingDirectory
                    ? !((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).isEmpty
                    : FileManager.default.fileExists(atPath: path)
            }
            let answer = try Self.finish(events)
            print("recover kill at \(marker): killed \(killed); rerun \(Int(answer["new"]?.doubleValue ?? -1)) new, \(Int(answer["already_applied"]?.doubleValue ?? -1)) already applied")
            if killed {
                #expect(answer["new"] == .int(committed ? 0 : Self.count) && answer["already_applied"] == .int(committed ? Self.count : 0), "\(marker): \(answer)")
            }
            #expect(killed || marker == EntitlementStore.journalFileName, "never saw \(marker) before the run ended")
            #expect(Self.state(events.setup.store) == expected, "killed at \(marker)")
        }

        // Killed at seeded moments over a whole run (fetching, applying, committing): the rerun
        // applies exactly what the ledger lacks.
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            let events = try Events()
            let delay = window * Double(random.next() % 1000) / 1000
            let killedAt = Date()
            let killed = try Self.run(events.arguments) { Date().timeIntervalSince(killedAt) >= delay }
            let answer = try Self.finish(events)
            let new = Int(answer["new"]?.doubleValue ?? -1), already = Int(answer["already_applied"]?.doubleValue ?? -1)
            #expect(new + already == Self.count && answer["failed"] == .int(0), "seed \(seed): \(answer)")
            #expect(killed || new == 0, "seed \(seed): the run ended, yet the rerun applied \(new)")
            #expect(Self.state(events.setup.store) == expected, "seed \(seed): killed after \(delay) s")
            #expect(try Binary.run(["verify", "--store", events.setup.store]).exitCode == 0)
            print("recover kill, seed \(seed): killed \(killed) after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", window)); rerun \(new) new, \(already) already applied")
        }
    }
}
