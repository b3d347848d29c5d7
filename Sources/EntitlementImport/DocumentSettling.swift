import FoundationEssentials
import EntitlementBasics
import EntitlementModel

extension ImportDocument {
    /// The document with what depends on its time and on config.json filled in; pure.
    ///
    /// Google Play's purchase document says a subscription is in its grace period but not
    /// when the paid period ended, so that end is the document time (`--at`, else now); and a
    /// Stripe price is configured by its product (`prod_…`) or by its own id (`price_…`).
    ///
    /// The configured products are gathered once: a document of thousands of products against a
    /// configuration of thousands costs the sum of the two, not their product.
    package func settled(at time: Date, configuration: ProductConfiguration, counter: WorkCounter? = nil) -> ImportDocument {
        var document = self
        var configured: Set<String>?
        for index in document.transactions.indices {
            var mapped = document.transactions[index]
            if mapped.endsAtDocumentTime { mapped.transaction.expiresAt = time }
            counter.add(1)
            if let product = mapped.transaction.productID, !mapped.alternativeProductIDs.isEmpty {
                if configured == nil {
                    configured = Set(configuration.entitlements.flatMap(\.products))
                    counter.add(configuration.entitlements.reduce(0) { $0 + $1.products.count })
                }
                counter.add(1 + mapped.alternativeProductIDs.count)
                if !configured!.contains(product), let alternative = mapped.alternativeProductIDs.first(where: { configured!.contains($0) }) {
                    mapped.transaction.productID = alternative
                }
            }
            document.transactions[index] = mapped
        }
        for index in document.renewals.indices where document.renewals[index].billingIssueAtDocumentTime {
            document.renewals[index].billingIssueDetectedAt = .set(time)
        }
        return document
    }
}
