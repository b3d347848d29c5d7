import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementIngest
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport
@testable import EntitlementTrust

/// Adapty and Qonversion deliveries in any order give byte-identical profiles, and a replay
/// changes nothing, as IngestOrderTests shows for the others.
@Suite(.tags(.cli))
struct VendorEventOrderTests {
    typealias F = IngestFixtures

    /// Alice's Adapty year and Bob's Qonversion one: trials, renewals, cancellations and
    /// reactivations, a grace period, snapshots, a refund.
    static let events: [String] = [
        F.adapty("trial_started", id: "a1", at: 0, expiresAt: 7),
        F.adapty("trial_converted", id: "a2", at: 7, transaction: "t2", purchasedAt: 7, expiresAt: 37),
        F.adaptyAccessLevel(id: "a3", at: 7, active: true, expiresAt: 37, transaction: "t2"),
        F.adapty("subscription_renewal_cancelled", id: "a4", at: 12, transaction: "t2", purchasedAt: 7, expiresAt: 37),
        F.adapty("subscription_renewal_reactivated", id: "a5", at: 14, transaction: "t2", purchasedAt: 7, expiresAt: 37),
        F.adapty("entered_grace_period", id: "a6", at: 37, transaction: "t2", purchasedAt: 7, expiresAt: 43),
        F.adapty("subscription_renewed", id: "a7", at: 39, transaction: "t3", purchasedAt: 39, expiresAt: 69),
        F.adaptyAccessLevel(id: "a8", at: 39, active: true, expiresAt: 69, transaction: "t3"),
        F.adapty("subscription_refunded", id: "a9", at: 50, transaction: "t3", purchasedAt: 39, expiresAt: 69),
        F.qonversion("trial_started", at: 1, user: "bob", transaction: 700, original: 700, purchasedAt: 1, expiresAt: 8),
        F.qonversion("trial_converted", at: 8, user: "bob", transaction: 701, original: 700, purchasedAt: 8, expiresAt: 38),
        F.qonversion("subscription_canceled", at: 20, user: "bob", transaction: 701, original: 700, expiresAt: 38),
        F.qonversion("subscription_billing_retry", at: 38, user: "bob", transaction: 701, original: 700, expiresAt: 38),
        F.qonversion("subscription_renewed", at: 40, user: "bob", transaction: 702, original: 700, purchasedAt: 40, expiresAt: 70),
        F.qonversion("subscription_expired", at: 70, user: "bob", transaction: 702, original: 700, expiresAt: 70),
    ]

    @Test(arguments: [11, 12, 13, 14, 15, 16])
    func shuffledOrdersConverge(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let reference = IngestOrderTests.profiles(after: Self.events)
        #expect(reference.count == 2)
        // Compared file by file, so a failure names the profile without printing every byte.
        let shuffled = IngestOrderTests.profiles(after: Self.events.shuffled(using: &generator))
        for (name, bytes) in reference { #expect(shuffled[name] == bytes, "\(name) differs") }
    }

    @Test func reversedInOneBatchEqualsOneByOne() {
        #expect(IngestOrderTests.profiles(after: Self.events.reversed(), batched: true) == IngestOrderTests.profiles(after: Self.events))
    }

    /// The records hold the newest state, so each check is at a time after the events that decide it.
    @Test func statesAfterTheYear() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: Self.events.reversed().joined(separator: "\n")).exitCode == 0)
        let expected: [(String, Double, String)] = [("alice", 45, "active"), ("alice", 55, "revoked"), ("bob", 50, "active"), ("bob", 71, "expired")]
        for (user, day, state) in expected {
            let check = runCLI(["check", user, "premium", "--store", store, "--at", IngestFixtures.at(day), "--json"])
            #expect(check.stdout.contains("\"state\": \"\(state)\""), "\(user) at day \(day): \(check.stdout)")
        }
    }

    @Test func replaysAreDuplicatesAndChangeNothing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let input = Self.events.joined(separator: "\n")
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: input).exitCode == 0)
        let before = [readFile(store + "/profiles/alice.json"), readFile(store + "/profiles/bob.json")]
        let again = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets, "--json"], stdin: input)
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("\"duplicate\": \(Self.events.count)"), "\(again.stdout)")
        #expect([readFile(store + "/profiles/alice.json"), readFile(store + "/profiles/bob.json")] == before)
    }
}
