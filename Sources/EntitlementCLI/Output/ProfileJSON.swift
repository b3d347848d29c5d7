import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// `status --json`: a profile shaped like Adapty's Profile object, at one instant.
///
/// Written straight into bytes as it is computed (`JSONStream`), keys in byte order, the
/// same text `JSONWriter` writes for the same tree: a profile with 10,000 transactions
/// would otherwise build (and free) a tree of as many objects only to print it.
enum ProfileJSON {
    /// The document, pretty-printed and ending in a newline, written into `sink`, which may
    /// hand it on in parts (`ByteSink.drainIfFull`) as the purchases and subscriptions are written.
    static func render(_ fullProfile: Profile, engine: StatusEngine, at date: Date, explain: Bool, into sink: ByteSink) {
        // Everything is shown as known at `date`; the engine gets the whole profile so
        // `--explain` can name what was left out.
        let ids = engine.entitlementIDs(for: fullProfile).sorted(by: JSONKey.precedes)
        let basis = EvaluationBasis(fullProfile, at: date, indexed: ids.count > 1, counter: engine.counter)
        let profile = basis.profile
        var out = JSONStream(style: .pretty, into: sink)
        out.beginObject()
        let evaluations = ids.map { engine.evaluate($0, in: basis) }
        out.key("access_levels")
        out.beginObject()
        for (id, evaluation) in zip(ids, evaluations) {
            out.key(named: id)
            out.beginObject()
            evaluation.accessLevel.writeMembers(into: &out)
            out.endObject()
        }
        out.endObject()
        out.key("created_at"); out.date(profile.createdAt)
        out.key("custom_attributes"); out.value(.object(profile.customAttributes))
        out.key("customer_user_id"); out.string(profile.customerUserID)
        out.key("evaluated_at"); out.date(date)
        if explain {
            out.key("explanations")
            out.beginObject()
            for (id, evaluation) in zip(ids, evaluations) {
                out.key(named: id)
                out.value(.object(ExplanationRenderer.json(evaluation)))
            }
            out.endObject()
        }
        // The newest applied vendor event (docs/json-output.md): null for a profile no event touched.
        out.key("last_event_at"); out.date(fullProfile.lastEventAt)
        out.key("non_subscriptions")
        out.value { depth, sink in appendNonSubscriptions(profile, depth: depth, to: sink) }
        out.key("profile_id"); out.string(profile.profileID)
        out.key("subscriptions")
        writeSubscriptions(profile, engine: engine, at: date, supersessions: basis.supersessions, into: &out)
        out.key("total_revenue_usd"); out.value(.double(totalRevenueUSD(profile)))
        out.endObject()
        out.raw(0x0A)
    }

    /// The latest transaction of each subscription product, keyed by product id.
    static func writeSubscriptions(_ profile: Profile, engine: StatusEngine, at date: Date, supersessions: [Supersession.Key: Supersession]? = nil,
                                   into out: inout JSONStream) {
        var latest: [String: Int] = [:]  // product id → index of its latest transaction
        for (index, transaction) in profile.transactions.enumerated() where !transaction.isManualGrant && isSubscription(transaction) {
            guard let productID = transaction.productID else { continue }
            if let current = latest[productID], !StatusEngine.recencyOrder(profile.transactions[current], transaction) { continue }
            latest[productID] = index
        }
        out.beginObject()
        guard !latest.isEmpty else { return out.endObject() }
        let supersessions = supersessions ?? Supersession.all(in: profile)
        let chains = Self.chains(of: latest.values.map { profile.transactions[$0].originalTransactionID }, in: profile, counter: engine.counter)
        for (productID, index) in latest.sorted(by: { JSONKey.precedes($0.key, $1.key) }) {
            let transaction = profile.transactions[index]
            let chain = chains[transaction.originalTransactionID] ?? []
            let chainEnd = chain.compactMap { Supersession.end(of: $0, Supersession.lookup($0, in: supersessions)) }.max() ?? .distantPast
            let verdict = engine.verdict(transaction, in: profile, at: date, chainEnd: [transaction.originalTransactionID: chainEnd],
                                         supersession: Supersession.lookup(transaction, in: supersessions))
            let renewal = profile.renewal(for: transaction)
            let first = chain.min { $0.effectiveStart < $1.effectiveStart } ?? transaction
            var inGrace = false
            if case .inGracePeriod = verdict { inGrace = true }
            out.key(named: productID)
            out.beginObject()
            out.key("activated_at"); out.date(first.effectiveStart)
            out.key("billing_issue_detected_at"); out.date(renewal?.billingIssueDetectedAt)
            out.key("expires_at"); out.date(transaction.expiresAt)
            out.key("is_active"); out.bool(verdict.givesAccess)
            out.key("is_in_grace_period"); out.bool(inGrace)
            out.key("is_lifetime"); out.bool(transaction.expiresAt == nil)
            out.key("is_refund"); out.bool(transaction.revokedAt != nil)
            out.key("is_sandbox"); out.bool(transaction.environment == .sandbox)
            out.key("period_type"); out.string(StatusEngine.periodType(of: transaction).rawValue)
            out.key("renewed_at"); out.date(first.transactionID == transaction.transactionID ? nil : transaction.purchasedAt)
            out.key("starts_at"); out.date(transaction.effectiveStart)
            out.key("store"); out.string(transaction.store.rawValue)
            out.key("unsubscribed_at"); out.date(renewal?.unsubscribedAt)
            out.key("vendor_original_transaction_id"); out.string(transaction.originalTransactionID)
            out.key("vendor_product_id"); out.string(productID)
            out.key("vendor_transaction_id"); out.string(transaction.transactionID)
            out.key("will_renew"); out.bool(renewal?.willRenew ?? false)
            out.endObject()
            out.sink.drainIfFull()
        }
        out.endObject()
    }

    static func isSubscription(_ transaction: Transaction) -> Bool {
        transaction.type.isSubscription || (!transaction.type.isKnown && transaction.expiresAt != nil)
    }

    /// USD prices of transactions not refunded; other currencies are not converted.
    static func totalRevenueUSD(_ profile: Profile) -> Double {
        let cents = profile.transactions.reduce(0.0) { sum, transaction in
            guard transaction.revokedAt == nil, transaction.currency == "USD" || transaction.currency?.uppercased() == "USD", let price = transaction.price else { return sum }
            return sum + (price * 100).rounded()
        }
        return cents / 100
    }
}
