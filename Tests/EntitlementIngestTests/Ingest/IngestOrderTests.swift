import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Order and exactly-once: any arrival order of the same events gives byte-identical profiles,
/// and a replay changes nothing.
@Suite(.tags(.cli))
struct IngestOrderTests {
    typealias F = IngestFixtures

    /// A customer's year: purchase, renewals, a billing issue, a refund and its reversal,
    /// a cancellation, a second customer, and App Store notifications for a third.
    static let events: [String] = [
        F.revenueCat("INITIAL_PURCHASE", id: "r1", at: 0),
        F.revenueCat("RENEWAL", id: "r2", at: 30, transaction: "t2", purchasedAt: 30, expiresAt: 60),
        F.revenueCat("BILLING_ISSUE", id: "r3", at: 60, transaction: "t2", purchasedAt: 30, expiresAt: 60,
                     extra: ["grace_period_expiration_at_ms": F.base + 66 * F.day]),
        F.revenueCat("RENEWAL", id: "r4", at: 62, transaction: "t3", purchasedAt: 62, expiresAt: 92),
        F.revenueCat("CANCELLATION", id: "r5", at: 70, transaction: "t3", purchasedAt: 62, expiresAt: 92, extra: ["cancel_reason": "CUSTOMER_SUPPORT"]),
        F.revenueCat("REFUND_REVERSED", id: "r6", at: 71, transaction: "t3", purchasedAt: 62, expiresAt: 92),
        F.revenueCat("CANCELLATION", id: "r7", at: 80, transaction: "t3", purchasedAt: 62, expiresAt: 92, extra: ["cancel_reason": "UNSUBSCRIBE"]),
        F.revenueCat("INITIAL_PURCHASE", id: "r8", at: 3, user: "bob", transaction: "b1", original: "b1", purchasedAt: 3, expiresAt: 33),
        F.revenueCat("EXPIRATION", id: "r9", at: 33, user: "bob", transaction: "b1", original: "b1", purchasedAt: 3, expiresAt: 33),
        F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "a1", signedAt: 0),
        F.appStore("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", uuid: "a2", signedAt: 30,
                   renewal: ["isInBillingRetryPeriod": true, "gracePeriodExpiresDate": F.base + 36 * F.day]),
        F.appStore("DID_RENEW", subtype: "BILLING_RECOVERY", uuid: "a3", signedAt: 32,
                   transaction: ["transactionId": "1001", "purchaseDate": F.base + 32 * F.day, "expiresDate": F.base + 62 * F.day,
                                 "transactionReason": "RENEWAL"],
                   renewal: ["isInBillingRetryPeriod": false]),
    ]

    /// The profiles' bytes after ingesting `bodies` in that order, one request at a time.
    static func profiles(after bodies: [String], batched: Bool = false) -> [String: String] {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let environment: [String: String] = [:]
        if batched {
            let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n"), environment: environment)
            #expect(result.exitCode == 0, "\(result.stderr)")
        } else {
            for body in bodies {
                let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body, environment: environment)
                #expect(result.exitCode == 0, "\(result.stderr)")
            }
        }
        var files: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: store + "/profiles")) ?? [] {
            files[name] = readFile(store + "/profiles/" + name)
        }
        return files
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func shuffledOrdersConverge(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let reference = Self.profiles(after: Self.events)
        #expect(reference.count == 3)
        let shuffled = Self.profiles(after: Self.events.shuffled(using: &generator))
        #expect(shuffled == reference)
    }

    @Test func oneBatchEqualsOneByOne() {
        #expect(Self.profiles(after: Self.events.reversed(), batched: true) == Self.profiles(after: Self.events))
    }

    @Test func replaysAreDuplicatesAndChangeNothing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let input = Self.events.joined(separator: "\n")
        let environment: [String: String] = [:]
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: input, environment: environment).exitCode == 0)
        let before = readFile(store + "/profiles/alice.json")
        let again = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets, "--json"], stdin: input + "\n" + input, environment: environment)
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("\"duplicate\": \(2 * Self.events.count)") || again.stdout.contains("\"duplicate\":\(2 * Self.events.count)"), "\(again.stdout)")
        #expect(readFile(store + "/profiles/alice.json") == before)
    }

    @Test func anOlderEventNeverMovesStateBackwards() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        // The cancellation (day 5) arrives first; the purchase event (day 0) comes late.
        let late = [F.revenueCat("CANCELLATION", id: "c", at: 5, extra: ["cancel_reason": "CUSTOMER_SUPPORT"]), F.revenueCat("INITIAL_PURCHASE", id: "p", at: 0)]
        for body in late {
            #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body).exitCode == 0)
        }
        let check = runCLI(["check", "alice", "premium", "--store", store, "--at", "2026-01-10T00:00:00Z"])
        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("revoked"))
    }
}
