import EntitlementBasics
import EntitlementModel

/// The rows of `bench-transactions.tsv`, which the benchmark loads into SQLite.
///
/// One line per transaction, tab-separated, in the order of `columns`; an absent value
/// is an empty field. Generated ids and product ids hold no tab or newline.
enum PeerRows {
    static let columns = [
        "user_id", "transaction_id", "original_transaction_id", "product_id", "store", "type",
        "purchased_at", "starts_at", "expires_at", "revoked_at", "entitlement", "environment",
    ]

    static func rows(of profile: Profile) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(profile.transactions.count * 200)
        for transaction in profile.transactions {
            let fields: [String?] = [
                profile.customerUserID, transaction.transactionID, transaction.originalTransactionID,
                transaction.productID, transaction.store.rawValue, transaction.type.rawValue,
                ISODate.format(transaction.purchasedAt), transaction.startsAt.map(ISODate.format),
                transaction.expiresAt.map(ISODate.format), transaction.revokedAt.map(ISODate.format),
                transaction.entitlement, transaction.environment.rawValue,
            ]
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: "\t")) }
                if let field { bytes.append(contentsOf: field.utf8) }
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
