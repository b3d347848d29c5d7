import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// `verify`'s check that no store purchase is held by two customers: a transaction of one
/// store and transaction id in two profiles is a split purchase, whose events reach one copy
/// only. (Not the original transaction id: RevenueCat's subscriber documents carry none, and
/// the one import derives from the product and purchase time may be shared by two customers.)
///
/// Linear: each profile adds its purchases' keys to one dictionary as the scan reads it. The
/// dictionary keeps a 64-bit digest of each key and the index of its first holder (16 bytes
/// a purchase, whatever the ids' length); a digest met twice is confirmed on the two profiles'
/// real ids at the end, so a digest collision is never reported.
struct PurchaseHolders {
    /// What one profile holds: its user id and the digests of its purchases, each once.
    struct Holding: Sendable {
        var user: String
        var keys: [UInt64]
    }

    private var firstHolder: [UInt64: Int32] = [:]
    private var users: [String] = []
    private var candidates: [(key: UInt64, first: Int32, second: Int32)] = []

    /// The store transactions a profile document holds (manual grants are no purchase).
    static func holding(_ object: JSONObject) -> Holding? {
        guard let user = object["customer_user_id"]?.stringValue, case .array(let items)? = object["transactions"] else { return nil }
        var keys = Set<UInt64>()
        for case .object(let transaction) in items {
            guard let purchase = purchase(transaction) else { continue }
            keys.insert(digest(purchase))
        }
        return keys.isEmpty ? nil : Holding(user: user, keys: Array(keys))
    }

    /// `store`, a zero byte and the transaction id; nil for a manual grant.
    static func purchase(_ transaction: JSONObject) -> [UInt8]? {
        let store = transaction["store"]?.stringValue ?? Store.manual.rawValue
        guard store != Store.manual.rawValue, transaction["type"]?.stringValue != TransactionType.manualGrant.rawValue,
              let id = transaction["transaction_id"]?.stringValue else { return nil }
        return Array(store.utf8) + [0] + Array(id.utf8)
    }

    /// FNV-1a, 64 bits: cheap, and the same in every run.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    mutating func add(_ holding: Holding) {
        let index = Int32(users.count)
        users.append(holding.user)
        for key in holding.keys {
            if let first = firstHolder[key] {
                candidates.append((key, first, index))
            } else {
                firstHolder[key] = index
            }
        }
    }

    /// One problem per purchase two customers hold, on the second holder's file, naming both.
    func problems(in store: EntitlementStore) -> [VerifyProblem] {
        var found: [VerifyProblem] = []
        var documents: [Int32: JSONObject] = [:]
        func document(_ index: Int32) -> JSONObject? {
            if let cached = documents[index] { return cached }
            let path = store.profilePath(for: users[Int(index)])
            guard let bytes = try? store.fileSystem.readFile(path), case .object(let object)? = try? JSONParser.parse(bytes) else { return nil }
            documents[index] = object
            return object
        }
        for candidate in candidates {
            guard let first = document(candidate.first), let second = document(candidate.second) else { continue }
            let shared = Set(Self.purchases(of: first, key: candidate.key)).intersection(Self.purchases(of: second, key: candidate.key))
            for purchase in shared.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let parts = purchase.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
                let storeName = String(decoding: parts[0], as: UTF8.self), id = String(decoding: parts.count > 1 ? parts[1] : [], as: UTF8.self)
                // Named in byte order, so the report is the same whichever file the scan read first.
                let pair = [users[Int(candidate.first)], users[Int(candidate.second)]].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                let (one, other) = (pair[0], pair[1])
                found.append(VerifyProblem(path: store.profilePath(for: other), field: "transactions", message:
                    "transaction '\(id)' of store \(storeName) is held by two customers, '\(one)' and '\(other)' "
                    + "(also \(store.profilePath(for: one))): its events reach one copy only; keep it with one customer "
                    + "('entitlement transfer FROM TO --transaction ID' moves each transaction to the customer who owns it)"))
            }
        }
        return found
    }

    /// The purchases of a profile document whose digest is `key`.
    private static func purchases(of object: JSONObject, key: UInt64) -> [[UInt8]] {
        guard case .array(let items)? = object["transactions"] else { return [] }
        return items.compactMap { item in
            guard case .object(let transaction) = item, let purchase = purchase(transaction), digest(purchase) == key else { return nil }
            return purchase
        }
    }
}
