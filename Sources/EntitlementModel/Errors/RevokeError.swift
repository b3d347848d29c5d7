/// Why `RevokePlanner` refused a revoke.
package enum RevokeError: Error, Equatable, Sendable {
    /// `--transaction` names no transaction of this profile.
    case transactionNotFound(id: String, user: String)
    /// The transaction does not give the entitlement named.
    case transactionDoesNotGrant(id: String, entitlement: String)
    /// The transaction is a store purchase and `--include-store` was not given.
    case storePurchaseNeedsIncludeStore(id: String, store: String)
}
