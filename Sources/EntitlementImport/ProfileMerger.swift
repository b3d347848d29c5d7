import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// What merging one document into a profile changed (docs/import.md, sections 7.2–7.6).
package struct MergeReport: Equatable, Sendable {
    package var transactionsAdded: [TransactionKey] = []
    package var transactionsUpdated: [TransactionKey] = []
    package var transactionsUnchanged: [TransactionKey] = []
    package var renewalsAdded: [String] = []
    package var renewalsUpdated: [String] = []
    package var renewalsUnchanged: [String] = []
    package var attributesSet: [String] = []
    package var attributesUnchanged: [String] = []
    package var createdProfile = false
    /// The profile's `profile_id` was set from the document.
    var setProfileID = false
    package var warnings: [String] = []

    /// True when the profile differs from what was stored.
    package var changed: Bool {
        createdProfile || setProfileID || !transactionsAdded.isEmpty || !transactionsUpdated.isEmpty
            || !renewalsAdded.isEmpty || !renewalsUpdated.isEmpty || !attributesSet.isEmpty
    }
}

/// Merges an `ImportDocument` into a profile, idempotently. Pure: the new profile's id
/// and the time come in, so the same document always gives the same result.
package enum ProfileMerger {
    /// Ids that import made up from document values (section 7.1).
    static let synthesizedPrefixes = ["rc:", "adapty:", "qonversion:"]

    package static func merge(_ document: ImportDocument, into existing: Profile?, userID: String,
                             newProfileID: String, now: Date) -> (Profile, MergeReport) {
        guard var profile = existing else {
            var profile = Profile(profileID: document.vendorProfileID ?? newProfileID, customerUserID: userID, createdAt: document.firstSeen ?? now)
            var positions: Positions?
            var report = merge(document, into: &profile, positions: &positions)
            report.createdProfile = true
            return (profile, report)
        }
        var positions: Positions?
        let report = merge(document, into: &profile, positions: &positions)
        return (profile, report)
    }

    /// Where each transaction of a profile is, by store and id: built once and kept up to
    /// date, so a run of many documents for one customer does not rebuild it per document
    /// (16,000 documents on standard input once took 20 s).
    package typealias Positions = [TransactionKey: Int]

    /// `merge(_:into:userID:newProfileID:now:)` into a stored profile, in place (no copy of
    /// its transactions), with `positions` built on first use and then reused by the caller.
    package static func merge(_ document: ImportDocument, into profile: inout Profile, positions: inout Positions?,
                      counter: WorkCounter? = nil) -> MergeReport {
        var report = MergeReport()
        if let vendorID = document.vendorProfileID {
            if profile.profileID?.isEmpty ?? true {
                profile.profileID = vendorID
                report.setProfileID = true
            } else if profile.profileID != vendorID {
                report.warnings.append("the profile has profile_id '\(Terminal.escape(profile.profileID ?? ""))'; Adapty's '\(Terminal.escape(vendorID))' is kept in vendor.adapty.profile_id only")
            }
        }
        mergeTransactions(document, into: &profile, positions: &positions, report: &report, counter: counter)
        mergeRenewals(document, into: &profile, report: &report)
        for (key, value) in document.customAttributes {
            if profile.customAttributes[key] == value {
                if !report.attributesUnchanged.contains(key) { report.attributesUnchanged.append(key) }
            } else {
                profile.customAttributes[key] = value
                report.attributesUnchanged.removeAll { $0 == key }
                if !report.attributesSet.contains(key) { report.attributesSet.append(key) }
            }
        }
        return report
    }

    private enum Change { case added, updated, unchanged }

    static func mergeTransactions(_ document: ImportDocument, into profile: inout Profile, positions: inout Positions?, report: inout MergeReport,
                                  counter: WorkCounter? = nil) {
        var index: Positions
        counter.add(document.transactions.count)
        if let built = positions.take() {
            index = built
        } else {
            counter.add(profile.transactions.count)
            index = [:]
            for (position, transaction) in profile.transactions.enumerated() {
                let key = TransactionKey(store: transaction.store.rawValue, transactionID: transaction.transactionID)
                if index[key] == nil { index[key] = position }
            }
        }
        defer { positions = index }
        var changes: [TransactionKey: Change] = [:]
        var order: [TransactionKey] = []
        for mapped in document.transactions {
            let key = mapped.key
            if changes[key] == nil { order.append(key) }
            if let position = index[key] {
                let stored = profile.transactions[position]
                let result = merged(stored, with: mapped, format: document.format)
                if result.json != stored.json {
                    profile.transactions[position] = result
                    if changes[key] != .added { changes[key] = .updated }
                } else if changes[key] == nil {
                    changes[key] = .unchanged
                }
            } else {
                var transaction = mapped.transaction
                transaction.raw = JSONObject([(Transaction.CodingKeys.vendor.rawValue, .object(JSONObject([(document.format.rawValue, mapped.vendor)])))])
                index[key] = profile.transactions.count
                profile.transactions.append(transaction)
                changes[key] = .added
            }
        }
        for key in order {
            switch changes[key] {
            case .added?: report.transactionsAdded.append(key)
            case .updated?: report.transactionsUpdated.append(key)
            default: report.transactionsUnchanged.append(key)
            }
        }
    }

    /// Section 7.2: the mapped fields over the stored transaction, with its two exceptions.
    static func merged(_ stored: Transaction, with mapped: MappedTransaction, format: Vendor) -> Transaction {
        let new = mapped.transaction
        var result = stored
        if !(mapped.originalIsSynthesized && !isSynthesized(stored.originalTransactionID)) {
            result.originalTransactionID = new.originalTransactionID
        }
        result.productID = new.productID
        result.store = new.store
        result.type = new.type
        result.purchasedAt = new.purchasedAt
        result.startsAt = new.startsAt
        result.expiresAt = new.expiresAt
        if stored.revokedBy == nil {  // import never un-revokes what `entitlement revoke` revoked
            result.revokedAt = new.revokedAt
            result.revocationReason = new.revocationReason
        }
        if new.type == .manualGrant {
            result.entitlement = new.entitlement
            result.grantedAt = new.grantedAt
            result.grantedBy = new.grantedBy
            result.reason = new.reason
        }
        if mapped.givesEnvironment { result.environment = new.environment }
        if mapped.givesOwnership { result.ownershipType = new.ownershipType }
        if let offerCode = new.offerCode { result.offerCode = offerCode }
        if let price = new.price { result.price = price }
        if let currency = new.currency { result.currency = currency }
        if let upgraded = new.isUpgraded { result.isUpgraded = upgraded }
        result.raw = withVendor(result.raw, format: format, value: mapped.vendor)
        return result
    }

    static func mergeRenewals(_ document: ImportDocument, into profile: inout Profile, report: inout MergeReport) {
        var changes: [String: Change] = [:]
        var order: [String] = []
        for mapped in document.renewals {
            let key = mapped.originalTransactionID
            if changes[key] == nil { order.append(key) }
            let stored = profile.renewalInfo[key]
            var info = stored ?? RenewalInfo()
            if case .set(let value) = mapped.willRenew { info.willRenew = value }
            if case .set(let value) = mapped.unsubscribedAt { info.unsubscribedAt = value }
            if case .set(let value) = mapped.billingIssueDetectedAt { info.billingIssueDetectedAt = value }
            if case .set(let value) = mapped.gracePeriodExpiresAt { info.gracePeriodExpiresAt = value }
            if case .set(let value) = mapped.isInBillingRetry { info.isInBillingRetry = value }
            if case .set(let value) = mapped.isPaused { info.isPaused = value }
            if case .set(let value) = mapped.pausedAt { info.pausedAt = value }
            if case .set(let value) = mapped.resumesAt { info.resumesAt = value }
            if let vendor = mapped.vendor { info.raw = withVendor(info.raw, format: document.format, value: vendor) }
            if stored == nil {
                changes[key] = .added
            } else if info != stored {
                if changes[key] != .added { changes[key] = .updated }
            } else if changes[key] == nil {
                changes[key] = .unchanged
            }
            profile.renewalInfo[key] = info
        }
        for key in order {
            switch changes[key] {
            case .added?: report.renewalsAdded.append(key)
            case .updated?: report.renewalsUpdated.append(key)
            default: report.renewalsUnchanged.append(key)
            }
        }
    }

    /// `raw` with `vendor.<format>` replaced; other vendors' keys stay.
    static func withVendor(_ raw: JSONObject, format: Vendor, value: JSONValue) -> JSONObject {
        var raw = raw
        let key = Transaction.CodingKeys.vendor.rawValue
        var vendor = raw[key]?.objectValue ?? JSONObject()
        vendor[format.rawValue] = value
        raw[key] = .object(vendor)
        return raw
    }

    static func isSynthesized(_ id: String) -> Bool { synthesizedPrefixes.contains { id.hasPrefix($0) } }
}
