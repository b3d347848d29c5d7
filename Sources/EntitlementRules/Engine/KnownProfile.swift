import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// A record the engine left out because it was made after the evaluation time.
package struct IgnoredRecord: Equatable, Sendable {
    package enum Kind: String, Sendable {
        case purchase, grant, revocation
        /// `unsubscribed_at`: auto-renew was still on before it.
        case unsubscription
        /// `billing_issue_detected_at`: no billing trouble (and no grace period) before it.
        case billingIssue = "billing_issue"
        /// `paused_at`: the subscription was not paused before it.
        case pause
    }

    package var kind: Kind
    /// The transaction, or for renewal facts the subscription's `original_transaction_id`.
    package var subject: String
    package var recordedAt: Date

    /// `--explain` wording.
    package var description: String {
        "\(kind == .billingIssue ? "billing issue" : kind.rawValue) \(subject) recorded \(ISODate.format(recordedAt)), after the evaluation time"
    }
}

extension Transaction {
    /// When the tool could first know of this transaction: `granted_at` for a manual
    /// grant (else `purchased_at`), `purchased_at` for everything else.
    package var recordedAt: Date { isManualGrant ? (grantedAt ?? purchasedAt) : purchasedAt }
}

extension Profile {
    /// The profile as it was known at `date`: the answer at T uses only what was recorded
    /// up to T (docs/status-rules.md, "As known at T").
    ///
    /// Transactions recorded after `date` are left out; a revocation after `date` is undone;
    /// a renewal fact dated after `date` is undone to the state before it (auto-renew on
    /// before `unsubscribed_at`; no billing issue, retry or grace period before
    /// `billing_issue_detected_at`; not paused before `paused_at`). Facts without a date are a snapshot and are kept.
    /// `created_at` after `date` is left out. Returns the profile and what was left out.
    package func asKnown(at date: Date) -> (profile: Profile, ignored: [IgnoredRecord]) {
        let needsWork = (createdAt.map { $0 > date } ?? false)
            || transactions.contains { $0.recordedAt > date || ($0.revokedAt.map { $0 > date } ?? false) }
            || renewalInfo.values.contains { ($0.unsubscribedAt.map { $0 > date } ?? false) || ($0.billingIssueDetectedAt.map { $0 > date } ?? false)
                || ($0.pausedAt.map { $0 > date } ?? false) }
        guard needsWork else { return (self, []) }
        var known = self
        var ignored: [IgnoredRecord] = []
        if let createdAt, createdAt > date { known.createdAt = nil }
        known.transactions = []
        var laterChains: Set<String> = []
        for var transaction in transactions {
            if transaction.recordedAt > date {
                ignored.append(IgnoredRecord(kind: transaction.isManualGrant ? .grant : .purchase, subject: transaction.transactionID,
                                             recordedAt: transaction.recordedAt))
                if !transaction.isManualGrant { laterChains.insert(Self.chainKey(of: transaction)) }
                continue
            }
            if let revokedAt = transaction.revokedAt, revokedAt > date {
                ignored.append(IgnoredRecord(kind: .revocation, subject: transaction.transactionID, recordedAt: revokedAt))
                transaction.revokedAt = nil
                transaction.revocationReason = nil
                transaction.revokedBy = nil
            }
            known.transactions.append(transaction)
        }
        // `is_upgraded` was learnt with the replacing transaction: when that one was recorded
        // after `date`, the upgrade was not known yet either.
        if !laterChains.isEmpty {
            for index in known.transactions.indices where known.transactions[index].isUpgraded == true
                && laterChains.contains(Self.chainKey(of: known.transactions[index])) {
                known.transactions[index].isUpgraded = nil
            }
        }
        for (original, info) in renewalInfo {
            var renewal = info
            if let unsubscribedAt = renewal.unsubscribedAt, unsubscribedAt > date {
                ignored.append(IgnoredRecord(kind: .unsubscription, subject: original, recordedAt: unsubscribedAt))
                renewal.unsubscribedAt = nil
                if renewal.willRenew == false { renewal.willRenew = true }
            }
            if let detected = renewal.billingIssueDetectedAt, detected > date {
                ignored.append(IgnoredRecord(kind: .billingIssue, subject: original, recordedAt: detected))
                renewal.billingIssueDetectedAt = nil
                renewal.gracePeriodExpiresAt = nil
                if renewal.isInBillingRetry == true { renewal.isInBillingRetry = false }
            }
            if let pausedAt = renewal.pausedAt, pausedAt > date {
                ignored.append(IgnoredRecord(kind: .pause, subject: original, recordedAt: pausedAt))
                renewal.pausedAt = nil
                renewal.resumesAt = nil
                if renewal.isPaused == true { renewal.isPaused = false }
            }
            known.renewalInfo[original] = renewal
        }
        ignored.sort { $0.recordedAt != $1.recordedAt ? $0.recordedAt < $1.recordedAt : $0.subject < $1.subject }
        return (known, ignored)
    }

    /// A subscription chain: transaction ids, and so `original_transaction_id`s, are unique per store.
    private static func chainKey(of transaction: Transaction) -> String {
        transaction.store.rawValue + " " + transaction.originalTransactionID
    }
}
