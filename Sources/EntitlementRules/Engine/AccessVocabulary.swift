import EntitlementModel

/// The state of an access level at one instant.
package enum AccessState: String, CaseIterable, Sendable {
    /// Access, from a transaction that has started and not expired or been revoked.
    case active
    /// Access past expiry, inside the store's billing grace period.
    case gracePeriod = "grace_period"
    /// No access: expired while the store is still retrying the charge.
    case billingRetry = "billing_retry"
    /// No access: the store paused the subscription after its last period (Google Play
    /// `PAUSED`, Stripe `paused`); `resumes_at` says when it resumes, if known.
    case paused
    case expired
    /// No access: the most recent transaction that would give access was revoked (refunded).
    case revoked
    /// No access yet: a grant or purchase starts later.
    case scheduled
    /// The entitlement was never granted to this profile.
    case never

    /// `active` and `grace_period` give access.
    package var isActive: Bool { self == .active || self == .gracePeriod }
}

/// Renewal outlook, in Qonversion's vocabulary.
package enum RenewState: String, CaseIterable, Sendable {
    case willRenew = "will_renew"
    case canceled
    case billingIssue = "billing_issue"
    case nonRenewable = "non_renewable"
    case unknown
}

/// Which kind of period the deciding transaction is in.
package enum PeriodType: String, CaseIterable, Sendable {
    case trial, intro, normal, promotional
}

/// How the customer came to have the deciding transaction.
package enum GrantType: String, CaseIterable, Sendable {
    case purchase
    case familySharing = "family_sharing"
    case offerCode = "offer_code"
    case manual
}

/// Which transactions count: `--environment production|sandbox|any`.
package enum EnvironmentFilter: String, CaseIterable, Sendable {
    case production, sandbox, any

    func includes(_ environment: Environment) -> Bool {
        switch self {
        case .any: return true
        case .production: return environment != .sandbox
        case .sandbox: return environment == .sandbox
        }
    }
}
