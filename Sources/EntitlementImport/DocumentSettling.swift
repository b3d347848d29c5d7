import FoundationEssentials
import EntitlementModel

extension ImportDocument {
    /// The document with what depends on its time and on config.json filled in; pure.
    ///
    /// Google Play's purchase document says a subscription is in its grace period but not
    /// when the paid period ended, so that end is the document time (`--at`, else now); and a
    /// Stripe price is configured by its product (`prod_…`) or by its own id (`price_…`).
    package func settled(at time: Date, configuration: ProductConfiguration) -> ImportDocument {
        var document = self
        for index in document.transactions.indices {
            var mapped = document.transactions[index]
            if mapped.endsAtDocumentTime { mapped.transaction.expiresAt = time }
            if let product = mapped.transaction.productID, configuration.entitlements(unlockedBy: product).isEmpty,
               let alternative = mapped.alternativeProductIDs.first(where: { !configuration.entitlements(unlockedBy: $0).isEmpty }) {
                mapped.transaction.productID = alternative
            }
            document.transactions[index] = mapped
        }
        for index in document.renewals.indices where document.renewals[index].billingIssueAtDocumentTime {
            document.renewals[index].billingIssueDetectedAt = .set(time)
        }
        return document
    }
}
