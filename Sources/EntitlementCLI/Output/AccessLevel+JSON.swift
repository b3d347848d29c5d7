import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

extension AccessLevel {
    /// The `--json` object; every key is always present (null when unknown).
    var json: JSONObject {
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
            (K.resumesAt.rawValue, date(resumesAt)),
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

extension AccessLevel {
    /// Writes the members of `json` into the open object of `out`, in key order, with the
    /// members a `check` answer adds in their sorted places (each only when given;
    /// `profileID` of `.some(nil)` is written as null; `line` is the input line of `check --stdin`).
    func writeMembers(into out: inout JSONStream, customerUserID: String? = nil, evaluatedAt: Date? = nil, line: Int? = nil, profileID: String?? = nil) {
        out.key("activated_at"); out.date(activatedAt)
        out.key("billing_issue_detected_at"); out.date(billingIssueDetectedAt)
        if let customerUserID { out.key("customer_user_id"); out.string(customerUserID) }
        if let evaluatedAt { out.key("evaluated_at"); out.date(evaluatedAt) }
        out.key("expires_at"); out.date(expiresAt)
        out.key("grace_period_expires_at"); out.date(gracePeriodExpiresAt)
        out.key("grant_type"); out.string(grantType?.rawValue)
        out.key("id"); out.string(id)
        out.key("is_active"); out.bool(isActive)
        out.key("is_in_grace_period"); out.bool(isInGracePeriod)
        out.key("is_lifetime"); out.bool(isLifetime)
        out.key("is_sandbox"); out.bool(isSandbox)
        if let line { out.key("line"); out.int(line) }
        out.key("period_type"); out.string(periodType?.rawValue)
        out.key("product_id"); out.string(productID)
        if let profileID { out.key("profile_id"); out.string(profileID) }
        out.key("renew_state"); out.string(renewState.rawValue)
        out.key("renewed_at"); out.date(renewedAt)
        out.key("resumes_at"); out.date(resumesAt)
        out.key("revocation_reason"); out.string(revocationReason)
        out.key("revoked_at"); out.date(revokedAt)
        out.key("starts_at"); out.date(startsAt)
        out.key("state"); out.string(state.rawValue)
        out.key("store"); out.string(store?.rawValue)
        out.key("transaction_id"); out.string(transactionID)
        out.key("unsubscribed_at"); out.date(unsubscribedAt)
        out.key("will_renew"); out.bool(willRenew)
    }
}
