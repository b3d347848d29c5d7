import EntitlementBasics

/// Why `RestorePlanner` refused a restore.
package enum RestoreError: Error, Equatable, Sendable {
    /// The revocation came from a store (a refund in the vendor's data): only the store can undo it.
    case storeRevocation(transactionID: String, store: String)

    var code: String { "store_revocation" }

    var message: String {
        switch self {
        case .storeRevocation(let id, let store):
            return "transaction '\(Terminal.escape(id))' was revoked by its store (\(Terminal.escape(store))): a refund in the vendor's data cannot be restored."
        }
    }

    var hint: String? {
        "Only revocations made with 'entitlement revoke' can be restored. To give access anyway, use 'entitlement grant'."
    }
}
