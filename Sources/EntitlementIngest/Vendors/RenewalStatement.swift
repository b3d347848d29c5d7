import FoundationEssentials
import EntitlementImport

/// The renewal facts an event states as of its time, for vendors whose events name a change
/// rather than carry the whole subscription (Adapty, Qonversion). Pure.
///
/// Every field is stated, never kept: a record is set only by the newest event that names
/// it (`RecordStamp`), so an older event that arrives later cannot leave half of its facts
/// behind, and any arrival order of the same events gives the same renewal info.
enum RenewalStatement: Equatable, Sendable {
    /// Renews at the end of the period: a purchase, a renewal, a reactivation.
    case renewing
    /// Auto-renew turned off at the event: access stays until the period ends.
    case cancelled
    /// A pause (Google Play): no renewal; access stays until the period ends.
    case paused
    /// The subscription ended: no renewal, no billing retry, no grace.
    case expired
    /// A failed charge at the event: billing retry, with access until `grace` when there is one.
    case billingIssue(grace: Date?)

    func renewal(original: String, at time: Date) -> MappedRenewal {
        var renewal = MappedRenewal(originalTransactionID: original)
        var grace: Date?
        if case .billingIssue(let end) = self { grace = end }
        let failing = grace != nil || self == .billingIssue(grace: nil)
        renewal.willRenew = .set(self == .renewing || failing)
        renewal.unsubscribedAt = .set(self == .cancelled ? time : nil)
        renewal.billingIssueDetectedAt = .set(failing ? time : nil)
        renewal.isInBillingRetry = .set(failing)
        renewal.gracePeriodExpiresAt = .set(grace)
        return renewal
    }
}
