import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Property tests: for a seeded random set of events from several vendors, ingest
/// split across two team clones (real git, a bare remote) and then `sync` equals ingest of all
/// of them into one: the same profiles and config.json byte for byte, the same ledger, each event
/// applied once. Events given to both clones are duplicates, idempotent across clones.
/// ENTITLEMENT_STRESS=1 runs more seeds and more events (by hand, with `--filter IngestPropertyTests`).
@Suite(.tags(.endToEnd), .timeLimit(.minutes(10)), .enabled(if: Binary.exists, "needs the built binary"))
struct IngestPropertyTests {
    typealias F = IngestFixtures
    static var stress: Bool { ProcessInfo.processInfo.environment["ENTITLEMENT_STRESS"] == "1" }
    static let seeds: [UInt64] = stress ? [1, 2, 3, 4, 5, 6, 7, 8] : [20_260_126, 42]
    static var eventCount: Int { stress ? 60 : 24 }

    /// Random events of RevenueCat (three customers, renewals, cancellations, billing issues,
    /// expirations, refunds) and the App Store (one customer's renewals, failures, refunds).
    static func events(_ random: inout SplitMix64, count: Int) -> [String] {
        var events: [String] = []
        for index in 0..<count {
            let day = Int64(random.next() % 90)
            let period = day / 30
            if random.next() % 3 == 0 {
                let types: [(String, String?)] = [("SUBSCRIBED", "INITIAL_BUY"), ("DID_RENEW", nil), ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"),
                                                  ("EXPIRED", "VOLUNTARY"), ("REFUND", nil), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")]
                let (type, subtype) = types[Int(random.next() % UInt64(types.count))]
                var transaction: [String: Any] = ["transactionId": "\(1000 + period)", "purchaseDate": F.base + period * 30 * F.day,
                                                  "expiresDate": F.base + (period + 1) * 30 * F.day]
                if type == "REFUND" { transaction["revocationDate"] = F.base + day * F.day; transaction["revocationReason"] = 0 }
                var renewal: [String: Any] = ["autoRenewStatus": type == "DID_CHANGE_RENEWAL_STATUS" || type == "EXPIRED" ? 0 : 1]
                if type == "DID_FAIL_TO_RENEW" { renewal["isInBillingRetryPeriod"] = true; renewal["gracePeriodExpiresDate"] = F.base + (day + 6) * F.day }
                events.append(F.appStore(type, subtype: subtype, uuid: "n\(index)", signedAt: day, transaction: transaction, renewal: renewal))
            } else {
                let user = ["alice", "bob", "carol"][Int(random.next() % 3)]
                let types = ["INITIAL_PURCHASE", "RENEWAL", "CANCELLATION", "BILLING_ISSUE", "EXPIRATION", "UNCANCELLATION"]
                let type = types[Int(random.next() % UInt64(types.count))]
                var extra: [String: Any] = [:]
                if type == "CANCELLATION", random.next() % 2 == 0 { extra["cancel_reason"] = "CUSTOMER_SUPPORT" }
                if type == "BILLING_ISSUE" { extra["grace_period_expiration_at_ms"] = F.base + (day + 3) * F.day }
                events.append(F.revenueCat(type, id: "\(user)-\(index)", at: day, user: user, transaction: "\(user)-t\(period)", original: "\(user)-t0",
                                           purchasedAt: period * 30, expiresAt: (period + 1) * 30, extra: extra))
            }
        }
        return events
    }

    @Test(arguments: seeds)
    func twoClonesAndSyncEqualOne(seed: UInt64) throws {
        let team = try TeamFixture.team(of: 3)
        let secrets = Self.secrets(in: team.directory.path)
        var random = SplitMix64(seed: seed)
        let events = Self.events(&random, count: Self.eventCount)
        // Each event goes to clone s0, s1 or both (a duplicate across clones); each clone's share is shuffled.
        var shares: [[String]] = [[], []]
        for event in events {
            switch random.next() % 4 {
            case 0: shares[0].append(event); shares[1].append(event)
            case 1: shares[0].append(event)
            default: shares[1].append(event)
            }
        }
        for index in 0..<2 { shares[index] = Self.shuffled(shares[index], &random) }
        // s0 ingests its share in two runs, so its commits interleave with s1's.
        let half = shares[0].count / 2
        try Self.ingest(Array(shares[0][..<half]), into: "s0", team, secrets)
        try Self.ingest(shares[1], into: "s1", team, secrets)
        try #require(try team.run(["sync"], in: "s1").exitCode == 0)
        try Self.ingest(Array(shares[0][half...]), into: "s0", team, secrets)
        for clone in ["s0", "s1", "s0"] {
            let sync = try team.run(["sync"], in: clone)
            try #require(sync.exitCode == 0, "\(sync.stderr)")
        }
        // s2 takes every event, in order of generation and with every duplicate.
        try Self.ingest(events + shares[0].filter { shares[1].contains($0) }, into: "s2", team, secrets)
        let reference = Self.state(team.snapshot("s2"))
        for clone in ["s0", "s1"] {
            let state = Self.state(team.snapshot(clone))
            #expect(state.files.keys.sorted() == reference.files.keys.sorted(), "\(clone): the same profiles")
            for (path, bytes) in reference.files where state.files[path] != bytes {
                Issue.record("\(clone): \(path) differs from the single store's (seed \(seed))")
            }
            #expect(state.ledger.keys.sorted() == reference.ledger.keys.sorted(), "\(clone): the same events in the ledger")
            #expect(state.ledger.filter { reference.ledger[$0.key] != $0.value }.keys.sorted() == [], "\(clone): the same ledger records")
            #expect(try team.settledStatus(in: clone) == "")
            #expect(try team.run(["verify"], in: clone).exitCode == 0)
        }
        // Applied once: every event is now a duplicate in a synced clone.
        let replay = try team.run(["ingest", "--stdin", "--json", "--secrets", secrets], in: "s0", stdin: events.joined(separator: "\n") + "\n")
        #expect(replay.stdout.contains("\"applied\": 0"), "\(replay.stdout)")
        #expect(replay.stdout.contains("\"duplicate\": \(events.count)"), "\(replay.stdout)")
        #expect(reference.ledger.count == events.count)
    }

    /// The same event twice in one run (one batch): applied once, the copy a duplicate. Before the
    /// fix both copies counted as duplicates and the event was never applied.
    @Test(.tags(.cli)) func aCopyInTheSameBatchIsADuplicateNotALoss() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let event = F.revenueCat("INITIAL_PURCHASE", id: "twice", at: 0)
        let result = runCLI(["ingest", "--stdin", "--json", "--store", store, "--secrets", secrets], stdin: event + "\n" + event + "\n")
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("\"applied\": 1"), "\(result.stdout)")
        #expect(result.stdout.contains("\"duplicate\": 1"), "\(result.stdout)")
        let at = ISODate.format(Date(timeIntervalSince1970: Double(F.base) / 1000 + 86_400))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", at]).exitCode == 0)
    }

    static func ingest(_ events: [String], into clone: String, _ team: TeamFixture, _ secrets: String) throws {
        guard !events.isEmpty else { return }
        let result = try team.run(["ingest", "--stdin", "--secrets", secrets], in: clone, stdin: events.joined(separator: "\n") + "\n")
        try #require(result.exitCode == 0, "\(clone): \(result.stderr)")
    }

    /// Profiles and config.json as bytes; each ledger record without its received time and
    /// outcome (which depend on when and in which order a copy saw the event).
    static func state(_ snapshot: [String: Data]) -> (files: [String: Data], ledger: [String: [String: String]]) {
        var files: [String: Data] = [:], ledger: [String: [String: String]] = [:]
        for (path, data) in snapshot {
            if path == "config.json" || path.hasPrefix("profiles/") { files[path] = data }
            if path.hasPrefix("ingest/events/"), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                ledger[path] = object.filter { $0.key != "received_at" && $0.key != "outcome" }.mapValues { "\($0)" }
            }
        }
        return (files, ledger)
    }

    static func shuffled(_ items: [String], _ random: inout SplitMix64) -> [String] {
        var items = items
        for index in stride(from: items.count - 1, to: 0, by: -1) { items.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        return items
    }

    /// RevenueCat's header value and the App Store test root, mode 0600.
    static func secrets(in directory: String) -> String {
        let root = directory + "/test-root.der"
        _ = FileManager.default.createFile(atPath: root, contents: Data(F.chain.root.der))
        let secrets = directory + "/secrets.json"
        writeFile(secrets, F.json(["revenuecat": ["authorization": F.secret], "appstore": ["bundle_id": "com.example", "trust_roots": [root]]]))
        chmod(secrets, 0o600)
        return secrets
    }
}
