import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementTeam
import EntitlementTestSupport

/// The team merge of what ingest writes (IngestPropertyTests found both gaps): two clones'
/// records of one event, and records two clones set from different events.
@Suite(.tags(.unit))
struct IngestRecordMergeTests {
    static let stamp = MergeStamp(at: ISODate.parse("2026-02-15T12:00:00Z")!, actor: "Sam <sam@example.com>")

    static func record(received: String, outcome: String) -> [UInt8] {
        Array(#"{"id": "e1", "outcome": "\#(outcome)", "received_at": "\#(received)", "vendor": "revenuecat"}"#.utf8)
    }

    @Test func twoRecordsOfOneEventKeepTheFirstReceivedWhicheverSideMerges() throws {
        let early = Self.record(received: "2026-01-01T00:00:01Z", outcome: "applied")
        let late = Self.record(received: "2026-01-01T00:00:02Z", outcome: "out_of_order")
        let path = "ingest/events/revenuecat/ab/abcd.json"
        #expect(try StoreFileMerge.merge(path: path, base: nil, ours: early, theirs: late, stamp: Self.stamp) == early)
        #expect(try StoreFileMerge.merge(path: path, base: nil, ours: late, theirs: early, stamp: Self.stamp) == early)
    }

    static func profile(_ id: String, at: String, expires: String, willRenew: Bool) -> [UInt8] {
        let applied = #"{"at": "\#(at)", "id": "\#(id)", "vendor": "revenuecat"}"#
        return Array("""
            {"schema_version": 1, "customer_user_id": "carol", "created_at": "2026-01-01T00:00:00Z", "last_event": \(applied),
             "renewal_info": {"t0": {"applied_event": \(applied), "will_renew": \(willRenew)}},
             "transactions": [{"applied_event": \(applied), "transaction_id": "t1", "original_transaction_id": "t0", "product_id": "monthly",
               "purchased_at": "2026-01-01T00:00:00Z", "expires_at": "\(expires)", "store": "app_store", "type": "subscription_renewed"}]}
            """.utf8)
    }

    @Test func recordsSetByEventsTakeTheNewerEventWhole() throws {
        let older = Self.profile("c-16", at: "2026-03-24T00:00:00Z", expires: "2026-05-01T00:00:00Z", willRenew: false)
        let newer = Self.profile("c-12", at: "2026-03-27T00:00:00Z", expires: "2026-04-01T00:00:00Z", willRenew: true)
        let path = "profiles/carol.json"
        let one = try StoreFileMerge.merge(path: path, base: nil, ours: older, theirs: newer, stamp: Self.stamp)
        let other = try StoreFileMerge.merge(path: path, base: nil, ours: newer, theirs: older, stamp: Self.stamp)
        #expect(one == other)
        let merged = try Profile(json: JSONParser.parse(one))
        // Field by field, the later expiry of the older event and its id would have mixed in.
        #expect(merged.transactions.first?.expiresAt == ISODate.parse("2026-04-01T00:00:00Z"))
        #expect(merged.renewalInfo["t0"]?.willRenew == true)
        #expect(merged.raw["last_event"]?.objectValue?["id"]?.stringValue == "c-12")
        #expect(merged.raw["last_event"]?.objectValue?["at"]?.stringValue == "2026-03-27T00:00:00Z")
    }
}

/// Two clones' records of one awaited Google Play purchase and of one App Store original
/// transaction: the merge driver takes them (the attributes name their folders, from
/// `StoreFileKind`) and every clone settles on the same bytes.
@Suite(.tags(.unit))
struct PlayPurchaseMergeTests {
    static let path = "ingest/googleplay/purchases/\(String(repeating: "a", count: 64)).json"

    static func record(_ type: String?, notified: String?, imported: String?) -> [UInt8] {
        func value(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
        return Array(#"{"imported_at": \#(value(imported)), "notification_type": \#(value(type)), "notified_at": \#(value(notified)), "purchase_token": "gp", "schema_version": 1}"#.utf8)
    }

    @Test func theLaterNotificationAndTheLaterImportAreKept() throws {
        let notified = Self.record("SUBSCRIPTION_RENEWED", notified: "2026-03-15T12:00:00Z", imported: nil)
        let imported = Self.record(nil, notified: nil, imported: "2026-03-15T12:05:00Z")
        let merged = try StoreFileMerge.merge(path: Self.path, base: nil, ours: notified, theirs: imported, stamp: IngestRecordMergeTests.stamp)
        #expect(try JSONParser.parse(merged) == JSONParser.parse(Self.record("SUBSCRIPTION_RENEWED", notified: "2026-03-15T12:00:00Z", imported: "2026-03-15T12:05:00Z")),
                "\(String(decoding: merged, as: UTF8.self))")
        #expect(try StoreFileMerge.merge(path: Self.path, base: nil, ours: imported, theirs: notified, stamp: IngestRecordMergeTests.stamp) == merged)
    }

    @Test func anAppStoreIndexEntryMergesLikeAnAliasEntry() throws {
        let path = "index/app-store-original-transaction/aa/\(String(repeating: "a", count: 64))"
        let a = Array("alice".utf8), b = Array("bob".utf8)
        #expect(try StoreFileMerge.merge(path: path, base: nil, ours: a, theirs: b, stamp: IngestRecordMergeTests.stamp) == b)
        #expect(try StoreFileMerge.merge(path: path, base: nil, ours: b, theirs: a, stamp: IngestRecordMergeTests.stamp) == b)
        #expect(GitSetup.privateAttributes.contains("index/app-store-original-transaction/** merge=entitlement"))
        #expect(GitSetup.privateAttributes.contains("ingest/googleplay/purchases/** merge=entitlement"))
    }
}
