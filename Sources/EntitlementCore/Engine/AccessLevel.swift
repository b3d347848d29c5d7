import FoundationEssentials

/// An entitlement's access at one instant, derived from a profile; never stored.
///
/// Fields follow Adapty's CustomerAccessLevel, plus `state`, `renew_state`,
/// `period_type`, `is_sandbox`, `grant_type` and `transaction_id`.
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
        case store
        case productID = "product_id"
        case renewState = "renew_state"
        case periodType = "period_type"
        case isSandbox = "is_sandbox"
        case grantType = "grant_type"
        case transactionID = "transaction_id"
    }

    /// The `--json` object; every key is always present (null when unknown).
    public var json: JSONObject {
        typealias K = CodingKeys
        func date(_ value: Date?) -> JSONValue { value.map { .string(ISODate.format($0)) } ?? .null }
        return JSONObject([
            (K.id.rawValue, .string(id)),
            (K.state.rawValue, .string(state.rawValue)),
            (K.isActive.rawValue, .bool(isActive)),
            (K.isLifetime.rawValue, .bool(isLifetime)),
            (K.expiresAt.rawValue, date(expiresAt)),
            (K.startsAt.rawValue, date(startsAt)),
            (K.activatedAt.rawValue, date(activatedAt)),
            (K.renewedAt.rawValue, date(renewedAt)),
            (K.willRenew.rawValue, .bool(willRenew)),
            (K.isInGracePeriod.rawValue, .bool(isInGracePeriod)),
            (K.gracePeriodExpiresAt.rawValue, date(gracePeriodExpiresAt)),
            (K.revokedAt.rawValue, date(revokedAt)),
            (K.revocationReason.rawValue, .string(revocationReason)),
            (K.unsubscribedAt.rawValue, date(unsubscribedAt)),
            (K.billingIssueDetectedAt.rawValue, date(billingIssueDetectedAt)),
            (K.store.rawValue, .string(store?.rawValue)),
            (K.productID.rawValue, .string(productID)),
            (K.renewState.rawValue, .string(renewState.rawValue)),
            (K.periodType.rawValue, .string(periodType?.rawValue)),
            (K.isSandbox.rawValue, .bool(isSandbox)),
            (K.grantType.rawValue, .string(grantType?.rawValue)),
            (K.transactionID.rawValue, .string(transactionID)),
        ])
    }
}
