import FoundationEssentials
import EntitlementModel

/// An entitlement's access at one instant, derived from a profile; never stored.
///
/// Fields follow Adapty's CustomerAccessLevel, plus `state`, `renew_state`,
/// `period_type`, `is_sandbox`, `grant_type`, `transaction_id` and `resumes_at`.
package struct AccessLevel: Equatable, Sendable {
    package var id: String
    package var state: AccessState
    package var isLifetime = false
    package var expiresAt: Date?
    package var startsAt: Date?
    package var activatedAt: Date?
    package var renewedAt: Date?
    package var willRenew = false
    package var gracePeriodExpiresAt: Date?
    package var revokedAt: Date?
    package var revocationReason: String?
    package var unsubscribedAt: Date?
    package var billingIssueDetectedAt: Date?
    /// When a paused subscription resumes (state `paused` only; nil when not known).
    package var resumesAt: Date?
    package var store: Store?
    package var productID: String?
    package var renewState: RenewState = .unknown
    package var periodType: PeriodType?
    package var isSandbox = false
    package var grantType: GrantType?
    /// The transaction that gives access, or that decided the state.
    package var transactionID: String?

    package init(id: String, state: AccessState) {
        self.id = id
        self.state = state
    }

    package var isActive: Bool { state.isActive }
    package var isInGracePeriod: Bool { state == .gracePeriod }

    package enum CodingKeys: String {
        case id, state
        case isActive = "is_active"
        case isLifetime = "is_lifetime"
        case expiresAt = "expires_at"
        case startsAt = "starts_at"
        case activatedAt = "activated_at"
        case renewedAt = "renewed_at"
        case willRenew = "will_renew"
        case isInGracePeriod = "is_in_grace_period"
        case gracePeriodExpiresAt = "grace_period_expires_at"
        case revokedAt = "revoked_at"
        case revocationReason = "revocation_reason"
        case unsubscribedAt = "unsubscribed_at"
        case billingIssueDetectedAt = "billing_issue_detected_at"
        case resumesAt = "resumes_at"
        case store
        case productID = "product_id"
        case renewState = "renew_state"
        case periodType = "period_type"
        case isSandbox = "is_sandbox"
        case grantType = "grant_type"
        case transactionID = "transaction_id"
    }
}
