import FoundationEssentials
import EntitlementImport
import EntitlementModel

/// The rule Adapty's and Qonversion's webhook events share (docs/ingest.md): an event that
/// states a transaction whole makes one record of a kind read from the event's name, a refund
/// revokes it at the event's time, and a subscription's renewal facts follow it.
enum PurchaseEventRule {
    /// A one-time purchase, a trial's start, else a subscription's start (the transaction is
    /// its own original) or renewal.
    static func kind(event: String, oneTime: Bool, id: String, original: String) -> TransactionType {
        if oneTime { return .nonConsumablePurchase }
        if event == "trial_started" { return .trialStarted }
        return original == id ? .subscriptionStarted : .subscriptionRenewed
    }

    /// The event's `environment`: `sandbox` in any case, else production.
    static func environment(_ text: String?) -> Environment {
        text?.lowercased() == "sandbox" ? .sandbox : .production
    }

    /// Adds the event's transaction to `document`: revoked (refunded) at `time` for a refund;
    /// with an end, the subscription's renewal facts too: expired after a refund, else renewing.
    static func record(_ mapped: MappedTransaction, refund: Bool, at time: Date, in document: inout ImportDocument) {
        var mapped = mapped
        if refund {
            mapped.transaction.revokedAt = time
            mapped.transaction.revocationReason = ImportValue.refunded
        }
        document.transactions.append(mapped)
        if mapped.transaction.expiresAt != nil {
            let statement: RenewalStatement = refund ? .expired : .renewing
            document.renewals.append(statement.renewal(original: mapped.transaction.originalTransactionID, at: time))
        }
    }
}
