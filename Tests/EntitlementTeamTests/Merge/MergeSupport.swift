import Foundation
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementTeam
import EntitlementTestSupport

/// Merge suites nest here, so `swift test --filter Merge` runs exactly them.
enum Merge {}

extension Merge {
    /// Parses a profile written as JSON text (test fixtures are always valid).
    static func profile(_ text: String) -> Profile {
        try! Profile(json: JSONParser.parse(Array(text.utf8)))
    }

    static func configuration(_ text: String) -> ProductConfiguration {
        try! ProductConfiguration(json: JSONParser.parse(Array(text.utf8)))
    }

    /// The bytes the store would write for `profile`.
    static func bytes(_ profile: Profile) -> [UInt8] { JSONWriter().bytes(profile.json) }

    static func text(_ profile: Profile) -> String { JSONWriter().string(profile.json) }

    /// The merge's time and person in these suites (a merge made mid-February 2026 by "Sam").
    static let stamp = MergeStamp(at: ISODate.parse("2026-02-15T12:00:00Z")!, actor: "Sam <sam@example.com>")

    /// Merges profiles the way the driver does, through bytes.
    static func merged(_ base: Profile?, _ ours: Profile, _ theirs: Profile, path: String = "profiles/u1.json",
                       stamp: MergeStamp = Merge.stamp) throws -> [UInt8] {
        try StoreFileMerge.merge(path: path, base: base.map(bytes), ours: bytes(ours), theirs: bytes(theirs), stamp: stamp)
    }

    static func mergedProfile(_ base: Profile?, _ ours: Profile, _ theirs: Profile) throws -> Profile {
        try Profile(json: JSONParser.parse(merged(base, ours, theirs)))
    }

    /// The transaction with this store and id.
    static func transaction(_ profile: Profile, _ id: String, store: String = "app_store") -> Transaction? {
        profile.transactions.first { $0.transactionID == id && $0.store.rawValue == store }
    }
}

/// Random profiles and random edits of them, from a seed, for the property tests.
struct MergeProfileGenerator {
    var rng: SplitMix64
    static let reference = ISODate.parse("2026-01-01T00:00:00Z")!

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ bound: Int) -> Int { Int(rng.next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    mutating func date() -> JSONValue {
        .string(ISODate.format(Self.reference.addingTimeInterval(Double(int(90 * 24)) * 3600)))
    }

    /// A transaction with one of a few ids, so that the sides often hold the same one.
    /// What never changes about a purchase (its time, product, key) follows from its id;
    /// only what can change later (expiry, price) is drawn afresh.
    mutating func transaction() -> JSONObject {
        let number = int(6)
        var facts = MergeProfileGenerator(seed: 0xFAC7 &+ UInt64(number))
        let start = facts.date()
        if int(3) < 2 {
            var object = JSONObject([("transaction_id", .string("t\(number)")), ("store", .string(pick(["app_store", "play_store"]))),
                                     ("type", .string("subscription_started")), ("product_id", .string(facts.pick(["com.a", "com.b"]))),
                                     ("purchased_at", start), ("expires_at", date())])
            if int(3) == 0 { object["price"] = .number(pick(["9.99", "4.5", "10"])) }
            return object
        }
        var object = JSONObject([("transaction_id", .string("m\(number)")), ("store", .string("manual")), ("type", .string("manual_grant")),
                                 ("entitlement", .string(facts.pick(["premium", "sports"]))), ("purchased_at", start), ("granted_at", start),
                                 ("granted_by", .string(facts.pick(["dana", "lee"])))])
        if facts.int(3) > 0 { object["idempotency_key"] = .string(facts.pick(["K1", "K2"])) }
        if int(2) == 0 { object["expires_at"] = date() }
        return object
    }

    mutating func profile() -> Profile {
        var object = JSONObject([("customer_user_id", .string("u1")), ("profile_id", .string("p\(int(3))")), ("created_at", date())])
        var transactions = JSONObject()
        for _ in 0..<int(5) { transactions = adding(transaction(), to: transactions) }
        object["transactions"] = .array(transactions.entries.map(\.value))
        return try! Profile(json: .object(object))
    }

    /// One to four random edits of the kinds people and the tool make.
    mutating func edit(_ profile: Profile) -> Profile {
        var object = profile.json.objectValue!
        var transactions = JSONObject(object["transactions"]!.arrayItems.map { (Self.key($0.objectValue!), $0) })
        for _ in 0..<(1 + int(4)) {
            let keys = transactions.keys
            switch int(11) {
            case 0, 1: transactions = adding(transaction(), to: transactions)
            case 2 where !keys.isEmpty:
                let key = pick(keys)
                var item = transactions[key]!.objectValue!
                item["revoked_at"] = date()
                item["revocation_reason"] = .string(pick(["refunded", "other"]))
                item["revoked_by"] = .string(pick(["dana", "lee"]))
                transactions[key] = .object(item)
            case 3 where !keys.isEmpty:
                let key = pick(keys)
                var item = transactions[key]!.objectValue!
                item["expires_at"] = int(4) == 0 ? .null : date()
                transactions[key] = .object(item)
            case 4 where !keys.isEmpty:
                let key = pick(keys)
                var item = transactions[key]!.objectValue!
                item["x_note"] = int(2) == 0 ? .string("note \(int(5))") : .object(JSONObject([("n", .int(int(5)))]))
                transactions[key] = .object(item)
            case 5:
                var attributes = object["custom_attributes"]?.objectValue ?? JSONObject()
                attributes[pick(["country", "plan"])] = int(4) == 0 ? nil : pick([.string("DE"), .string("FR"), .int(int(50))])
                object["custom_attributes"] = .object(attributes)
            case 6:
                var renewals = object["renewal_info"]?.objectValue ?? JSONObject()
                var info = renewals["t\(int(3))"]?.objectValue ?? JSONObject()
                info[pick(["will_renew", "is_in_billing_retry"])] = .bool(int(2) == 0)
                if int(2) == 0 { info["grace_period_expires_at"] = date() }
                if int(3) == 0 { info["x_r"] = .string("r\(int(4))") }
                renewals["t\(int(3))"] = .object(info)
                object["renewal_info"] = .object(renewals)
            case 7 where !keys.isEmpty:
                transactions[pick(keys)] = nil  // a hand edit that deletes
            case 8: object["x_team"] = int(2) == 0 ? .string("team \(int(4))") : .int(int(9))
            case 9: object["profile_id"] = .string("p\(int(3))")
            default:
                transactions = adding(transaction(), to: transactions)
            }
        }
        object["transactions"] = .array(transactions.entries.map(\.value))
        return try! Profile(json: .object(object))
    }

    private func adding(_ transaction: JSONObject, to transactions: JSONObject) -> JSONObject {
        var result = transactions
        let key = Self.key(transaction)
        if result[key] == nil { result[key] = .object(transaction) }
        return result
    }

    static func key(_ transaction: JSONObject) -> String {
        "\(transaction["store"]?.stringValue ?? "manual") \(transaction["transaction_id"]!.stringValue!)"
    }
}

extension JSONValue {
    var arrayItems: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }
}
