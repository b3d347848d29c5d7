import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// RevenueCat's documented rule decides access from the entitlement alone: active when its
/// `expires_date` is null or after `request_date` (docs/import.md section 9.1.3). Two
/// published documents contradict their own purchases; these rules settle them that way.
extension RevenueCatMapper {
    /// An entitlement period that no imported purchase of its product covers becomes a
    /// made-up transaction `rc:entitlement:<id>:<purchase_date>` of that product, so the
    /// stored profile gives the access RevenueCat states, unless a purchase of the product
    /// was refunded (the refund wins, section 9.1.3).
    static func recordUnexplainedPeriods(of entitlements: [Entitlement], into document: inout ImportDocument, counter: WorkCounter? = nil) {
        // The document's transactions by product and by granted entitlement, kept up to date as
        // periods are made up: each entitlement looks at its own (a
        // document of 8,000 entitlements scanned every transaction for each).
        var byProduct: [String: [Int]] = [:], byGrant: [String: [Int]] = [:]
        func note(_ position: Int) {
            let transaction = document.transactions[position].transaction
            if let product = transaction.productID { byProduct[product, default: []].append(position) }
            if transaction.isManualGrant, let entitlement = transaction.entitlement { byGrant[entitlement, default: []].append(position) }
        }
        for position in document.transactions.indices { note(position) }
        counter.add(document.transactions.count)
        for entitlement in entitlements {
            var positions = (byProduct[entitlement.productID] ?? []) + (byGrant[entitlement.id] ?? [])
            counter.add(1 + positions.count)
            positions.sort { counter.add(1); return $0 < $1 }
            var unique: [Int] = []
            for position in positions where unique.last != position { unique.append(position) }
            let own = unique.map { document.transactions[$0].transaction }
            let count = document.transactions.count
            recordUnexplainedPeriod(of: entitlement, own: own, into: &document)
            if document.transactions.count > count { note(count) }
        }
    }

    /// One entitlement of `recordUnexplainedPeriods`, given its own transactions in document order.
    private static func recordUnexplainedPeriod(of entitlement: Entitlement, own: [Transaction], into document: inout ImportDocument) {
        func ends(_ date: Date?) -> Date { date ?? .distantFuture }
        let furthest = own.map { ends($0.expiresAt) }.max() ?? .distantPast
        guard let start = entitlement.purchasedAt, ends(entitlement.expiresAt) > furthest, !own.isEmpty || entitlement.expiresAt != nil else { return }
        // A refund wins over the entitlement's period: RevenueCat revokes access when the
        // purchase behind it is refunded, so no period is made up to outlast the refund.
        if let refunded = own.first(where: { $0.revokedAt != nil && !$0.isManualGrant }) {
            document.warnings.append("entitlement \(Terminal.escape(entitlement.id)) runs until \(entitlement.expiresAt.map(ISODate.format) ?? "never"), "
                + "but its purchase \(Terminal.escape(refunded.transactionID)) was refunded; the refund wins")
            return
        }
        let id = "rc:entitlement:\(entitlement.id):\(VendorDate.idText(start))"
        let store = own.first?.store ?? ImportValue.unknownStore
        let transaction = Transaction(transactionID: id, productID: entitlement.productID, store: store,
                                      type: entitlement.expiresAt == nil ? .nonConsumablePurchase : .subscriptionStarted,
                                      purchasedAt: start, expiresAt: entitlement.expiresAt)
        let until = entitlement.expiresAt.map(ISODate.format) ?? "never"
        document.warnings.append("entitlement \(Terminal.escape(entitlement.id)) runs until \(until), longer than any purchase of "
            + "\(Terminal.escape(entitlement.productID)); RevenueCat's entitlement period is recorded as \(Terminal.escape(id))")
        let vendor = JSONValue.object(JSONObject([(VendorObjectKey.section, .string(K.entitlements)), ("entitlement", .string(entitlement.id))]))
        document.transactions.append(MappedTransaction(transaction, vendor: vendor))
    }

    /// A document cannot report a purchase made after it was written: a `purchase_date`
    /// after `request_date` is read as `request_date` (the vendor's value stays in the
    /// vendor data, and ids keep the vendor's date so a re-import matches).
    static func readPurchasesAfterRequestDate(_ requestDate: Date, into document: inout ImportDocument) {
        for index in document.transactions.indices where document.transactions[index].transaction.purchasedAt > requestDate {
            var transaction = document.transactions[index].transaction
            document.warnings.append("\(Terminal.escape(transaction.transactionID)) is dated \(ISODate.format(transaction.purchasedAt)), "
                + "after request_date \(ISODate.format(requestDate)); recorded as of request_date")
            transaction.purchasedAt = requestDate
            if transaction.grantedAt != nil { transaction.grantedAt = requestDate }
            document.transactions[index].transaction = transaction
        }
    }
}
