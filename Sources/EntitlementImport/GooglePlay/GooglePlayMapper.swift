import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Google Play `SubscriptionPurchaseV2` → an `ImportDocument` (docs/import.md, "Google Play"). Pure.
///
/// Google's document is the current state of one purchase token, not a history, so the
/// token is one transaction (one per line item when there are several), updated by each
/// import; the token is its `original_transaction_id`, unless `linkedPurchaseToken` names
/// the purchase it replaced: then the replaced one's id, so the new purchase supersedes it
/// within one subscription, as an App Store upgrade does.
enum GooglePlayMapper {
    typealias K = PlayKey

    static func map(_ root: JSONValue, path: String) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .googleplay, shape: .subscriptionPurchase)
        let r = try FieldReader.vendorObject(root, path: path)
        let stateText = try r.vendorString(K.subscriptionState) ?? "SUBSCRIPTION_STATE_UNSPECIFIED"
        document.detail = stateText
        guard let state = PlayState(vendorText: stateText) else {
            throw FieldError(path: r.childPath(K.subscriptionState), message: "unknown subscription state \(ImportPath.show(.string(stateText)))")
        }
        if let account = try r.vendorObject(K.externalAccountIdentifiers),
           let id = try account.vendorNonEmptyString(K.obfuscatedExternalAccountId) {
            document.user = id
            document.userSource = .obfuscatedExternalAccountId
        }
        if try r.vendorString(K.acknowledgementState) == "ACKNOWLEDGEMENT_STATE_PENDING", !state.isPending {
            document.warnings.append("the purchase is not acknowledged: Google refunds it unless it is acknowledged within three days")
        }
        let token = try purchaseToken(r, into: &document)
        if state.isPending {
            document.warnings.append("\(state.rawValue): the payment is not complete, so there is no purchase to record; nothing imported")
            document.skipped.append("\(r.childPath(K.subscriptionState)): \(stateText)")
            document.statements.append(VendorStatement(subject: .subscription(token), vendorState: stateText, accepted: state.accepted, evidence: stateText))
            return document
        }
        let original = try r.vendorNonEmptyString(K.linkedPurchaseToken) ?? token
        let items = try r.vendorArray(K.lineItems) ?? []
        guard !items.isEmpty else { throw r.vendorMissing(K.lineItems) }
        let startTime = try r.vendorRequiredISODate(K.startTime)
        let isTest = r.value(K.testPurchase) != nil
        for (index, item) in items.enumerated() {
            let line = try FieldReader.vendorObject(item, path: ImportPath.index(r.childPath(K.lineItems), index))
            let product = try line.vendorID(K.productId)
            let expiry = try line.vendorRequiredISODate(K.expiryTime)
            let willRenew = try line.vendorObject(K.autoRenewingPlan)?.vendorBool(K.autoRenewEnabled) ?? false
            let phase = try line.vendorObject(K.offerPhase)
            let type: TransactionType = phase?.value(K.freeTrial) != nil ? .trialStarted
                : phase?.value(K.introductoryPrice) != nil ? .introStarted : .subscriptionStarted
            // Several line items (add-ons) are several subscriptions of one token.
            let suffix = items.count == 1 ? "" : ":\(product)"
            let transaction = Transaction(transactionID: token + suffix, originalTransactionID: original + suffix, productID: product,
                                          store: .playStore, type: type, purchasedAt: startTime, expiresAt: expiry,
                                          environment: isTest ? .sandbox : .production)
            var mapped = MappedTransaction(transaction, vendor: .object(JSONObject([
                ("purchase_token", .string(token)), ("subscription_state", .string(stateText)), ("line_item", item),
            ])))
            mapped.givesEnvironment = true
            mapped.endsAtDocumentTime = state == .inGracePeriod
            document.transactions.append(mapped)
            document.renewals.append(try renewal(r, state: state, original: original + suffix, willRenew: willRenew, expiry: expiry, stateText: stateText))
            document.statements.append(VendorStatement(subject: .subscription(original + suffix), vendorState: stateText,
                                                       accepted: state.accepted, evidence: "\(stateText) (\(product))"))
        }
        return document
    }

    /// The token: `purchaseToken` beside Google's fields (the request's parameter, which the
    /// response lacks), else the first order id without its renewal suffix, with a warning.
    static func purchaseToken(_ r: FieldReader, into document: inout ImportDocument) throws(FieldError) -> String {
        if let token = try r.vendorNonEmptyString(K.purchaseToken) { return token }
        guard let order = try r.vendorNonEmptyString(K.latestOrderId) else {
            throw FieldError(path: r.childPath(K.purchaseToken), message: "missing: add the purchase token the document was fetched with as \"purchaseToken\"")
        }
        // Renewal orders are the first order id with `..N` after it.
        let base = order.split(separator: ".", omittingEmptySubsequences: false).prefix(2).joined(separator: ".")
        document.warnings.append("no purchaseToken: the order id \(Terminal.escape(base)) stands in for it (notifications and linkedPurchaseToken name tokens)")
        return base
    }

    /// The renewal facts of the subscription state (docs/status-rules.md's table).
    static func renewal(_ r: FieldReader, state: PlayState, original: String, willRenew: Bool, expiry: Date?, stateText: String) throws(FieldError) -> MappedRenewal {
        var renewal = MappedRenewal(originalTransactionID: original)
        let canceled = try r.vendorObject(K.canceledStateContext)
        let cancelTime = try canceled?.vendorObject(K.userInitiatedCancellation)?.vendorISODate(K.cancelTime)
        renewal.willRenew = .set(state == .canceled || state == .expired ? false : willRenew)
        renewal.unsubscribedAt = .set(canceled == nil ? nil : cancelTime)
        renewal.isInBillingRetry = .set(state == .onHold)
        renewal.billingIssueDetectedAt = .set(state == .onHold ? expiry : nil)
        renewal.gracePeriodExpiresAt = .set(state == .inGracePeriod ? expiry : nil)
        renewal.billingIssueAtDocumentTime = state == .inGracePeriod
        renewal.isPaused = .set(state == .paused)
        renewal.pausedAt = .set(state == .paused ? expiry : nil)
        renewal.resumesAt = .set(state == .paused ? try r.vendorObject(K.pausedStateContext)?.vendorISODate(K.autoResumeTime) : nil)
        renewal.vendor = .object(JSONObject([("subscription_state", .string(stateText))]))
        return renewal
    }
}
