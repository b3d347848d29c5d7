import FoundationEssentials

/// An entitlement's access at one instant, derived from a profile; never stored.
///
/// Fields follow Adapty's CustomerAccessLevel, plus `state`, `renew_state`,
/// `period_type`, `is_sandbox`, `grant_type`, `transaction_id` and `resumes_at`.
public struct AccessLevel: Equatable, Sendable {
    public var id: String
    public var state: AccessState
    public var isLifetime = false
    public var expiresAt: Date?
    public var startsAt: Date?
    public var activatedAt: Date?
    public var renewedAt: Date?
    public var willRenew = false
    public var gracePeriodExpiresAt: Date?
    public var revokedAt: Date?
    public var revocationReason: String?
    public var unsubscribedAt: Date?
    public var billingIssueDetectedAt: Date?
    /// When a paused subscription resumes (state `paused` only; nil when not known).
    public var resumesAt: Date?
    public var store: Store?
    public var productID: String?
    public var renewState: RenewState = .unknown
    public var periodType: PeriodType?
    public var isSandbox = false
    public var grantType: GrantType?
    /// The transaction that gives access, or that decided the state.
    public var transactionID: String?

    public init(id: String, state: AccessState) {
        self.id = id
        self.state = state
    }

    public var isActive: Bool { state.isActive }
    public var isInGracePeriod: Bool { state == .gracePeriod }

    public enum CodingKeys: String {
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
