import EntitlementRules

/// Field names of Stripe's subscription, list and event objects.
package enum StripeKey {
    package static let object = "object"
    package static let id = "id"
    package static let data = "data"
    package static let type = "type"
    package static let created = "created"
    package static let customer = "customer"
    static let status = "status"
    static let items = "items"
    package static let price = "price"
    static let plan = "plan"
    package static let product = "product"
    static let currentPeriodStart = "current_period_start"
    static let currentPeriodEnd = "current_period_end"
    static let cancelAtPeriodEnd = "cancel_at_period_end"
    static let canceledAt = "canceled_at"
    static let endedAt = "ended_at"
    static let startDate = "start_date"
    static let trialStart = "trial_start"
    static let trialEnd = "trial_end"
    static let pauseCollection = "pause_collection"
    static let resumesAt = "resumes_at"
    static let metadata = "metadata"
    static let livemode = "livemode"
}

/// Stripe's subscription `status` values and what each means here (docs/import.md, "Stripe").
enum StripeStatus: String, CaseIterable, Sendable {
    case trialing, active, pastDue = "past_due", unpaid, canceled, incomplete
    case incompleteExpired = "incomplete_expired", paused

    /// Our states that agree with Stripe's, for the verdict rows (docs/status-rules.md's table).
    var accepted: [AccessState] {
        switch self {
        case .trialing, .active: return [.active]
        case .pastDue: return [.gracePeriod]
        case .unpaid, .incomplete: return [.billingRetry]
        case .canceled, .incompleteExpired: return [.expired, .revoked]
        case .paused: return [.paused]
        }
    }

    /// The current period was not paid: it gives no access of its own.
    var periodUnpaid: Bool { self == .pastDue || self == .unpaid || self == .incomplete || self == .incompleteExpired }
}
