import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// One Stripe event → records (docs/ingest.md, "Stripe events"). Pure.
///
/// A `customer.subscription.*` event's `data.object` is the whole subscription, so the event
/// alone states the period's transaction and the renewal facts, mapped as `import` maps a
/// subscription (`StripeMapper`); the newest event (by `created`) decides them.
enum StripeEventMapper {
    /// The subscription events: each carries the whole subscription.
    static let subscriptionTypes: Set<String> = [
        "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
        "customer.subscription.paused", "customer.subscription.resumed",
    ]
    /// Events that change nothing by themselves, and why.
    static let noChange: [String: String] = [
        "invoice.payment_failed": "the subscription's state comes with customer.subscription.updated (past_due, unpaid)",
        "invoice.paid": "the paid period comes with customer.subscription.updated (active)",
        "customer.subscription.trial_will_end": "a reminder; the trial's end is already recorded",
    ]

    /// The effects of event `type` whose `data.object` is `object`, and the customer it names.
    static func effects(type: String, object: FieldReader, time: Date) throws(FieldError) -> (EventEffects, customer: String?) {
        if subscriptionTypes.contains(type) {
            guard try object.vendorString(StripeKey.object) == "subscription" else {
                throw FieldError(path: object.childPath(StripeKey.object), message: "expected a subscription in \(type)")
            }
            var document = ImportDocument(format: .stripe, shape: .event)
            try StripeMapper.subscription(object, into: &document)
            for index in document.renewals.indices where document.renewals[index].isPaused == .set(true) {
                document.renewals[index].pausedAt = .set(time)
            }
            return (EventEffects(document: document), document.user)
        }
        if let reason = noChange[type] { return (.none(reason), try StripeMapper.idOrObject(object, StripeKey.customer)) }
        if type == "charge.refunded" { return try refund(object, time: time) }
        return (.none("event type \(type) is not mapped"), nil)
    }

    /// `charge.refunded` revokes the period its invoice paid, when the charge's `invoice` is
    /// expanded (it names the subscription and the period); a bare invoice id does not say
    /// which period, so that refund changes nothing and says so.
    static func refund(_ charge: FieldReader, time: Date) throws(FieldError) -> (EventEffects, customer: String?) {
        let customer = try StripeMapper.idOrObject(charge, StripeKey.customer)
        guard try charge.vendorBool("refunded") == true else { return (.none("a partial refund: access stays"), customer) }
        // Older API versions (and an unexpanded invoice) name the invoice by its id only.
        guard case .object? = charge.value("invoice"), let invoice = try charge.vendorObject("invoice"), let subscription = try StripeMapper.idOrObject(invoice, "subscription"),
              let line = try invoice.vendorObject("lines")?.vendorArray(StripeKey.data)?.first.flatMap({ try? FieldReader.vendorObject($0, path: invoice.childPath("lines")) }),
              let period = try line.vendorObject("period"), let start = try period.vendorEpochSeconds("start"), let end = try period.vendorEpochSeconds("end"),
              let product = try line.vendorObject(StripeKey.price).flatMap({ price throws(FieldError) in try StripeMapper.idOrObject(price, StripeKey.product) })
        else { return (.none("the charge's invoice is not expanded, so the refunded period is unknown; revoke it with `entitlement revoke`"), customer) }
        var transaction = Transaction(transactionID: "\(subscription):\(Int(start.timeIntervalSince1970))", originalTransactionID: subscription,
                                      productID: product, store: .stripe, type: .subscriptionRenewed, purchasedAt: start, expiresAt: end)
        transaction.revokedAt = time
        transaction.revocationReason = ImportValue.refunded
        var document = ImportDocument(format: .stripe, shape: .event)
        document.transactions.append(MappedTransaction(transaction, vendor: .object(JSONObject([("refunded_charge", .string((try charge.vendorString(StripeKey.id)) ?? ""))]))))
        return (EventEffects(document: document), customer)
    }
}
