import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

/// `verify` reports a store transaction (one store, one transaction id) held by two
/// customers, naming both, and finds it in linear work: bytes read through the file-system
/// seam, counted (never a clock), grow with the store, not with its square.
@Suite(.tags(.unit))
struct PurchaseHolderTests {
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["monthly"]}}}"#

    /// A profile holding `purchases`: (store, transaction id, original transaction id).
    static func profile(_ user: String, _ purchases: [(String, String, String)], grant: String? = nil) -> String {
        var items = purchases.map { store, id, original in
            #"{"transaction_id": "\#(id)", "original_transaction_id": "\#(original)", "product_id": "monthly", "store": "\#(store)", "#
                + #""type": "subscription_started", "purchased_at": "2026-01-01T00:00:00Z", "expires_at": "2026-02-01T00:00:00Z"}"#
        }
        if let grant {
            items.append(#"{"transaction_id": "\#(grant)", "store": "manual", "type": "manual_grant", "entitlement": "premium", "#
                         + #""purchased_at": "2026-01-01T00:00:00Z", "expires_at": null, "granted_at": "2026-01-01T00:00:00Z", "granted_by": "t", "reason": "r"}"#)
        }
        return #"{"schema_version": 1, "customer_user_id": "\#(user)", "transactions": [\#(items.joined(separator: ", "))]}"#
    }

    static func store(_ profiles: [String: String], in directory: TemporaryDirectory) -> String {
        let root = directory.store(config: config)
        for (user, json) in profiles { writeFile(root + "/profiles/\(user).json", json) }
        return root
    }

    static func problems(_ root: String) throws -> [VerifyProblem] {
        try StoreVerifier(store: EntitlementStore(root: root)).run().problems
    }

    @Test func aPurchaseInTwoProfilesIsReportedNamingBoth() throws {
        let directory = TemporaryDirectory()
        let root = Self.store([
            "alice": Self.profile("alice", [("app_store", "t1", "t1")]),
            "bob": Self.profile("bob", [("app_store", "t1", "t1")]),
        ], in: directory)
        let problems = try Self.problems(root)
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.path == root + "/profiles/bob.json" && problem.field == "transactions")
        #expect(problem.message.contains("transaction 't1' of store app_store")
                && problem.message.contains("held by two customers, 'alice' and 'bob'") && problem.message.contains(root + "/profiles/alice.json"),
                "\(problem.message)")
    }

    @Test func otherStoresManualGrantsAndOneCustomersRenewalsAreNoProblem() throws {
        let directory = TemporaryDirectory()
        let root = Self.store([
            "alice": Self.profile("alice", [("app_store", "t1", "t1"), ("app_store", "t2", "t1")], grant: "g1"),
            "bob": Self.profile("bob", [("play_store", "t1", "t1")], grant: "g1"),
            "carol": Self.profile("carol", [("stripe", "in_1", "sub_1")]),
            // A shared original transaction id alone (RevenueCat's derived ones can be) is no problem.
            "dave": Self.profile("dave", [("app_store", "t3", "t1")]),
        ], in: directory)
        #expect(try Self.problems(root).isEmpty)
    }

    @Test func threeHoldersAreTwoProblems() throws {
        let directory = TemporaryDirectory()
        let root = Self.store(["a": Self.profile("a", [("app_store", "t1", "t1")]), "b": Self.profile("b", [("app_store", "t1", "t1")]),
                               "c": Self.profile("c", [("app_store", "t1", "t1")])], in: directory)
        let problems = try Self.problems(root).filter { $0.message.contains("held by two customers") }
        #expect(problems.count == 2, "\(problems)")
    }

    /// Every profile holds its own purchase and one that all of them share: the worst case for a
    /// pairwise scan. Each size is 4× the last; linear work reads about 4× the bytes.
    @Test func theCheckReadsLinearWork() throws {
        var bytes: [Int] = []
        for size in [50, 200, 800] {
            let directory = TemporaryDirectory()
            var profiles: [String: String] = [:]
            for index in 0..<size { profiles["u\(index)"] = Self.profile("u\(index)", [("app_store", "own\(index)", "own\(index)"), ("app_store", "s", "s")]) }
            let counter = ReadCounter()
            let store = counter.counting(EntitlementStore(root: Self.store(profiles, in: directory)))
            let report = try StoreVerifier(store: store).run()
            #expect(report.problems.count == size - 1, "\(report.problems.prefix(2))")
            bytes.append(counter.bytes)
        }
        for (smaller, larger) in zip(bytes, bytes.dropFirst()) {
            #expect(Double(larger) < 6 * Double(smaller), "bytes read grew \(Double(larger) / Double(smaller))×: \(bytes)")
        }
    }
}
