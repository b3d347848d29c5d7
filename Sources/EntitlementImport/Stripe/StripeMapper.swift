import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// Stripe subscription objects → an `ImportDocument` (docs/import.md, "Stripe"). Pure.
///
/// A subscription alone, a list of them (`"object": "list"`; one document per customer when
/// it spans several, in `parts`), or an event whose `data.object` is one (its `created` is
/// then the document time). Each paid period is its own transaction, `SUB:PERIOD_START`, of
/// the subscription `SUB` (per price item when there are several), so renewals keep their
/// history and "as known at T" holds. Older API versions are read too: an item's `plan`
/// where there is no `price`, a subscription's own `plan` where there are no `items`.
package enum StripeMapper {
    typealias K = StripeKey

    static func map(_ root: JSONValue, signature: DocumentSignature, path: String) throws(FieldError) -> ImportDocument {
        let r = try FieldReader.vendorObject(root, path: path)
        switch signature {
        case .stripeList:
            return try list(r)
        case .stripeEvent:
            var document = ImportDocument(format: .stripe, shape: .event)
            let type = try r.vendorString(K.type) ?? "event"
            document.detail = type
            document.time = try r.vendorEpochSeconds(K.created)
            document.timeSource = document.time == nil ? nil : .created
            guard let object = try r.vendorObject(K.data)?.vendorObject(K.object),
                  try object.vendorString(K.object) == "subscription" else {
                let kind = (try? r.vendorObject(K.data)?.vendorObject(K.object)?.vendorString(K.object)) ?? nil
                document.warnings.append("\(Terminal.escape(type)) event carries \(kind.map { "a \(Terminal.escape($0))" } ?? "no object"), not a subscription; nothing imported")
                return document
            }
            try subscription(object, into: &document)
            return document
        default:
            var document = ImportDocument(format: .stripe, shape: .subscription)
            try subscription(r, into: &document)
            return document
        }
    }

    /// One subscription: its current period per item, its renewal facts and Stripe's verdict.
    package static func subscription(_ r: FieldReader, into document: inout ImportDocument) throws(FieldError) {
        let customer = try idOrObject(r, K.customer)
        let id = try StripeShapes.subscriptionKey(r, customer: customer)
        let statusText = try r.vendorID(K.status)
        guard let status = StripeStatus(rawValue: statusText) else {
            throw FieldError(path: r.childPath(K.status), message: "unknown subscription status \(ImportPath.show(.string(statusText)))")
        }
        if let customer {
            if let first = document.user, first != customer {
                throw FieldError(path: r.childPath(K.customer), message: "a second customer ('\(Terminal.escape(customer))' after '\(Terminal.escape(first))'): import one customer's subscriptions per document")
            }
            document.user = customer
            document.userSource = .stripeCustomer
        }
        if let metadata = try r.vendorObject(K.metadata) { document.stripeMetadata = metadata.object }
        let lines = try StripeShapes.lines(of: r)
        for line in lines {
            let original = lines.count == 1 ? id : "\(id):\(try line.vendorID(K.id))"
            let period = try StripePeriod(subscription: r, item: line, status: status)
            let (price, product) = try StripeShapes.price(of: line)
            var transaction = Transaction(transactionID: "\(original):\(Int(period.start.timeIntervalSince1970))", originalTransactionID: original,
                                          productID: product, store: .stripe, type: period.type, purchasedAt: period.start, expiresAt: period.end,
                                          environment: try r.vendorBool(K.livemode) == false ? .sandbox : .production)
            transaction.ownershipType = .owner
            var mapped = MappedTransaction(transaction, vendor: .object(JSONObject([
                ("subscription", .string(id)), ("status", .string(statusText)), ("price", .string((try price.vendorString(K.id)) ?? "")),
            ])))
            mapped.givesEnvironment = try r.vendorBool(K.livemode) != nil
            mapped.alternativeProductIDs = [try price.vendorString(K.id)].compactMap { $0 }
            document.transactions.append(mapped)
            document.renewals.append(try StripePeriod.renewal(r, status: status, original: original, period: period))
            // Stripe keeps `active` while collection is paused: our `paused` agrees with it then.
            let paused = r.value(K.pauseCollection).map { $0 != .null } ?? false
            document.statements.append(VendorStatement(subject: .subscription(original), vendorState: statusText,
                                                       accepted: status.accepted + (paused ? [.paused] : []),
                                                       evidence: "status \(statusText)" + (paused ? ", pause_collection" : "")))
        }
    }

    /// A list's subscriptions, one document per customer (in first-seen order) when it spans
    /// several: `GET /v1/subscriptions` answers every customer's.
    static func list(_ r: FieldReader) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .stripe, shape: .subscriptions)
        var customers: [String?] = []
        var parts: [ImportDocument] = []
        for (index, item) in (try r.vendorArray(K.data) ?? []).enumerated() {
            let itemReader = try FieldReader.vendorObject(item, path: ImportPath.index(r.childPath(K.data), index))
            guard try itemReader.vendorString(K.object) == "subscription" else {
                document.skipped.append("\(itemReader.path): not a subscription")
                continue
            }
            let customer = try idOrObject(itemReader, K.customer)
            if !customers.contains(customer) {
                customers.append(customer)
                parts.append(ImportDocument(format: .stripe, shape: .subscriptions))
            }
            let part = customers.firstIndex(of: customer)!
            try subscription(itemReader, into: &parts[part])
        }
        guard parts.count > 1 else {
            var single = parts.first ?? document
            single.skipped = document.skipped
            return single
        }
        for index in parts.indices {
            parts[index].detail = "of customer \(index + 1) of \(parts.count)" + (customers[index].map { " (\($0))" } ?? "")
        }
        parts[0].skipped = document.skipped
        document.parts = parts
        return document
    }

    /// A field that holds an id, or the expanded object with that `id`.
    package static func idOrObject(_ r: FieldReader, _ key: String) throws(FieldError) -> String? {
        if case .object? = r.value(key) { return try r.vendorObject(key)?.vendorNonEmptyString(K.id) }
        return try r.vendorNonEmptyString(key)
    }
}
