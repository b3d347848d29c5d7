import FoundationEssentials
import EntitlementJSON
import EntitlementModel

/// The current period of one Stripe subscription item, as the store records it.
///
/// Newer Stripe API versions keep `current_period_start`/`_end` on the item, older ones on
/// the subscription: the item's win. A period that was not paid (`past_due`, `unpaid`,
/// `incomplete`, `incomplete_expired`) gives no access of its own: its transaction ends
/// where it starts, and the renewal facts decide (grace period, billing retry). A trial ends
/// at `trial_end`; a canceled subscription at `ended_at` when that is earlier.
struct StripePeriod {
    typealias K = StripeKey

    var start: Date
    var end: Date
    /// The period's own end, paid or not.
    var periodEnd: Date
    var type: TransactionType

    init(subscription r: FieldReader, item: FieldReader, status: StripeStatus) throws(FieldError) {
        let itemStart = try item.vendorEpochSeconds(K.currentPeriodStart)
        let itemEnd = try item.vendorEpochSeconds(K.currentPeriodEnd)
        let subscriptionStart = try r.vendorEpochSeconds(K.currentPeriodStart), subscriptionEnd = try r.vendorEpochSeconds(K.currentPeriodEnd)
        guard let start = itemStart ?? subscriptionStart else { throw r.vendorMissing(K.currentPeriodStart) }
        guard var end = itemEnd ?? subscriptionEnd else { throw r.vendorMissing(K.currentPeriodEnd) }
        let trialEnd = try r.vendorEpochSeconds(K.trialEnd)
        let inTrial = status == .trialing
        periodEnd = end
        if inTrial, let trialEnd { end = trialEnd }
        if status.periodUnpaid { end = start }
        if status == .paused { end = min(end, trialEnd ?? start) }
        if status == .canceled, let ended = try r.vendorEpochSeconds(K.endedAt) { end = min(end, max(ended, start)) }
        let first = try r.vendorEpochSeconds(K.startDate).map { $0 >= start } ?? true
        self.start = start
        self.end = max(end, start)
        type = inTrial ? .trialStarted : first ? .subscriptionStarted : .subscriptionRenewed
    }

    /// The subscription's renewal facts for `status`; every fact is stated, so a later
    /// document clears what an earlier one set.
    static func renewal(_ r: FieldReader, status: StripeStatus, original: String, period: StripePeriod) throws(FieldError) -> MappedRenewal {
        var renewal = MappedRenewal(originalTransactionID: original)
        let cancelAtEnd = try r.vendorBool(K.cancelAtPeriodEnd) ?? false
        let canceledAt = try r.vendorEpochSeconds(K.canceledAt)
        let pause = try r.vendorObject(K.pauseCollection)
        renewal.willRenew = .set(!(cancelAtEnd || status == .canceled || status == .incompleteExpired || canceledAt != nil))
        renewal.unsubscribedAt = .set(cancelAtEnd || status == .canceled ? canceledAt : nil)
        renewal.billingIssueDetectedAt = .set(status.periodUnpaid && status != .incompleteExpired ? period.start : nil)
        // past_due keeps access while Stripe retries: at most to the end of the unpaid period.
        renewal.gracePeriodExpiresAt = .set(status == .pastDue ? period.periodEnd : nil)
        renewal.isInBillingRetry = .set(status == .unpaid || status == .incomplete)
        renewal.isPaused = .set(status == .paused || pause != nil)
        renewal.pausedAt = .set(nil)
        renewal.resumesAt = .set(try pause?.vendorEpochSeconds(K.resumesAt))
        renewal.vendor = .object(JSONObject([("status", .string(status.rawValue))]))
        return renewal
    }
}
