import FoundationEssentials

/// `status --json`: a profile shaped like Adapty's Profile object, at one instant.
enum ProfileJSON {
    static func render(_ fullProfile: Profile, engine: StatusEngine, at date: Date, explain: Bool) -> JSONObject {
        // Everything is shown as known at `date`; the engine gets the whole profile so
        // `--explain` can name what was left out.
        let profile = fullProfile.asKnown(at: date).profile
        var object = JSONObject()
        object["profile_id"] = .string(profile.profileID)
        object["customer_user_id"] = .string(profile.customerUserID)
        object["created_at"] = .string(profile.createdAt.map(ISODate.format))
        object["evaluated_at"] = .string(ISODate.format(date))
        var levels = JSONObject()
        var explanations = JSONObject()
        for id in engine.entitlementIDs(for: fullProfile) {
            let evaluation = engine.evaluate(id, for: fullProfile, at: date)
            levels[id] = .object(evaluation.accessLevel.json)
            if explain { explanations[id] = .object(ExplanationRenderer.json(evaluation)) }
        }
        object["access_levels"] = .object(levels)
        if explain { object["explanations"] = .object(explanations) }
        object["subscriptions"] = .object(subscriptions(profile, engine: engine, at: date))
        object["non_subscriptions"] = .object(nonSubscriptions(profile, engine: engine, at: date))
        object["custom_attributes"] = .object(profile.customAttributes)
        object["total_revenue_usd"] = .double(totalRevenueUSD(profile))
        return object
    }

    /// The latest transaction of each subscription product, keyed by product id.
    static func subscriptions(_ profile: Profile, engine: StatusEngine, at date: Date) -> JSONObject {
        var latest: [String: Transaction] = [:]
        for transaction in profile.transactions where !transaction.isManualGrant && isSubscription(transaction) {
            guard let productID = transaction.productID else { continue }
            if let current = latest[productID], !StatusEngine.recencyOrder(current, transaction) { continue }
            latest[productID] = transaction
        }
        var object = JSONObject()
        let supersessions = Supersession.all(in: profile)
        for (productID, transaction) in latest.sorted(by: { $0.key < $1.key }) {
            let chain = profile.transactions.filter { $0.originalTransactionID == transaction.originalTransactionID }
            let chainEnd = chain.compactMap { Supersession.end(of: $0, supersessions[Supersession.key(of: $0)]) }.max() ?? .distantPast
            let verdict = engine.verdict(transaction, in: profile, at: date, chainEnd: [transaction.originalTransactionID: chainEnd],
                                         supersession: supersessions[Supersession.key(of: transaction)])
            let renewal = profile.renewal(for: transaction)
            let first = chain.min { $0.effectiveStart < $1.effectiveStart } ?? transaction
            var inGrace = false
            if case .inGracePeriod = verdict { inGrace = true }
            object[productID] = .object(JSONObject(uniqueSortedKeys: [
                ("activated_at", .string(ISODate.format(first.effectiveStart))),
                ("billing_issue_detected_at", .string(renewal?.billingIssueDetectedAt.map(ISODate.format))),
                ("expires_at", .string(transaction.expiresAt.map(ISODate.format))),
                ("is_active", .bool(verdict.givesAccess)),
                ("is_in_grace_period", .bool(inGrace)),
                ("is_lifetime", .bool(transaction.expiresAt == nil)),
                ("is_refund", .bool(transaction.revokedAt != nil)),
                ("is_sandbox", .bool(transaction.environment == .sandbox)),
                ("period_type", .string(StatusEngine.periodType(of: transaction).rawValue)),
                ("renewed_at", .string(first.transactionID == transaction.transactionID ? nil : ISODate.format(transaction.purchasedAt))),
                ("starts_at", .string(ISODate.format(transaction.effectiveStart))),
                ("store", .string(transaction.store.rawValue)),
                ("unsubscribed_at", .string(renewal?.unsubscribedAt.map(ISODate.format))),
                ("vendor_original_transaction_id", .string(transaction.originalTransactionID)),
                ("vendor_product_id", .string(productID)),
                ("vendor_transaction_id", .string(transaction.transactionID)),
                ("will_renew", .bool(renewal?.willRenew ?? false)),
            ]))
        }
        return object
    }

    /// One-time purchases, keyed by product id, each an array in purchase order.
    static func nonSubscriptions(_ profile: Profile, engine: StatusEngine, at date: Date) -> JSONObject {
        var byProduct: [String: [JSONValue]] = [:]
        let purchases = profile.transactions.filter { !$0.isManualGrant && !isSubscription($0) }.sorted { $0.purchasedAt < $1.purchasedAt }
        for transaction in purchases {
            guard let productID = transaction.productID else { continue }
            byProduct[productID, default: []].append(.object(JSONObject(uniqueSortedKeys: [
                ("is_one_time", .bool(transaction.type == .consumablePurchase)),
                ("is_refund", .bool(transaction.revokedAt != nil)),
                ("is_sandbox", .bool(transaction.environment == .sandbox)),
                ("purchase_id", .string(transaction.transactionID)),
                ("purchased_at", .string(ISODate.format(transaction.purchasedAt))),
                ("store", .string(transaction.store.rawValue)),
                ("vendor_original_transaction_id", .string(transaction.originalTransactionID)),
                ("vendor_product_id", .string(productID)),
                ("vendor_transaction_id", .string(transaction.transactionID)),
            ])))
        }
        return JSONObject(byProduct.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value)) })
    }

    static func isSubscription(_ transaction: Transaction) -> Bool {
        transaction.type.isSubscription || (!TransactionType.known.contains(transaction.type) && transaction.expiresAt != nil)
    }

    /// USD prices of transactions not refunded; other currencies are not converted.
    static func totalRevenueUSD(_ profile: Profile) -> Double {
        let cents = profile.transactions.reduce(0.0) { sum, transaction in
            guard transaction.revokedAt == nil, transaction.currency?.uppercased() == "USD", let price = transaction.price else { return sum }
            return sum + (price * 100).rounded()
        }
        return cents / 100
    }
}
