import FoundationEssentials

extension AccessLevel {
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
