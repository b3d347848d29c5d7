import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// Adapty's `access_level_updated`: the whole state of one access level at the event, read
/// with import's `AdaptyPeriod` (its fields are a profile's `paid_access_levels` entry). Pure.
///
/// The level's period becomes one transaction, set as given: the store transaction that
/// `vendor_transaction_id` names (so it is the same record the purchase events write), or,
/// without one, the record import makes for an access level (`adapty:LEVEL:ACTIVATED`, or a
/// manual grant when Adapty itself granted the level). `is_active: false` ends access at the
/// event even when `expires_at` is later (Adapty revoked it); `is_refund` revokes it.
enum AdaptyAccessLevelSnapshot {
    static func document(_ p: FieldReader, time: Date, profileID: String?) throws(FieldError) -> ImportDocument {
        let level = try p.vendorID(AdaptyEventKey.accessLevelID)
        try ImportValidation.entitlementID(level, path: p.childPath(AdaptyEventKey.accessLevelID))
        var period = try AdaptyPeriod(p, isAccessLevel: true)
        if period.isActive == false, !period.isRefund, period.isLifetime || period.expiresAt.map({ $0 > time }) ?? true {
            period.isLifetime = false
            period.isInGracePeriod = false
            period.expiresAt = time
        }
        var document = try records(level, period, p, profileID: profileID)
        // A refund the snapshot reports took effect by the event (import, without one, uses the expiry).
        for index in document.transactions.indices {
            if let revoked = document.transactions[index].transaction.revokedAt, revoked > time {
                document.transactions[index].transaction.revokedAt = time
            }
        }
        return document
    }

    /// The level's transaction (and renewal info) as import would write it.
    private static func records(_ level: String, _ period: AdaptyPeriod, _ p: FieldReader, profileID: String?) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .adapty, shape: .event)
        guard period.store != AdaptyKey.adaptyStore, let transactionID = period.transactionID else {
            AdaptyMapper.accessLevel(level, period, p, backed: [], profileID: profileID ?? "", into: &document)
            guard !document.transactions.isEmpty else { throw p.vendorMissing(AdaptyKey.vendorProductID) }
            return document
        }
        guard let product = period.productID else { throw p.vendorMissing(AdaptyKey.vendorProductID) }
        let original = period.originalTransactionID ?? transactionID
        document.noteMapping(level, product)
        let vendor = AdaptyMapper.vendorObject(profileID ?? "", AdaptyKey.paidAccessLevels, level, p)
        document.transactions.append(period.transaction(id: transactionID, original: original, product: product,
                                                        purchasedAt: period.renewedAt ?? period.activatedAt, vendor: vendor))
        if let renewal = period.renewal(original: original) { document.renewals.append(renewal) }
        return document
    }
}
