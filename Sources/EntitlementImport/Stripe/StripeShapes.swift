import EntitlementJSON

/// The shapes of older Stripe API versions (docs/import.md, "Stripe: API versions read").
///
/// An account stays on the API version it was created with, and its webhooks and answers
/// come in that shape. Every shape that carries the state is read: an item's `plan` where
/// there is no `price` (before the Prices API of 2020), the subscription's own `plan` where
/// there are no `items`, a plan's `id` where it names no `product` (before 2018), and
/// a subscription without an `id` of its own (before 2014-01-31, when a customer had one
/// subscription) under its customer's id. One with neither is refused by name.
enum StripeShapes {
    typealias K = StripeKey

    /// The key a subscription's periods are kept under: its `id`; before 2014-01-31 a
    /// subscription had none, and a customer had one subscription, so the customer's id.
    /// Neither is refused by name.
    static func subscriptionKey(_ r: FieldReader, customer: String?) throws(FieldError) -> String {
        if r.value(K.id) != nil, r.value(K.id) != .null { return try r.vendorID(K.id) }
        guard let customer else { throw withoutID(r) }
        return customer
    }

    /// The refusal of a subscription with neither an `id` nor a `customer`.
    static func withoutID(_ r: FieldReader) -> FieldError {
        FieldError(path: r.childPath(K.id), message: "missing: a Stripe subscription with neither its own \"id\" nor a \"customer\" "
                   + "names no subscription to keep its periods under, so it is not imported")
    }

    /// The readers of a subscription's lines: its `items.data`, or the subscription itself
    /// when it has no `items` but a `plan` of its own.
    static func lines(of r: FieldReader) throws(FieldError) -> [FieldReader] {
        let items = try r.vendorObject(K.items)?.vendorArray(K.data) ?? []
        if items.isEmpty, try r.vendorObject(K.plan) != nil { return [r] }
        guard !items.isEmpty else {
            throw FieldError(path: r.childPath(K.items), message: "missing: a subscription without items (or a plan) has no product")
        }
        var lines: [FieldReader] = []
        for (index, item) in items.enumerated() {
            lines.append(try FieldReader.vendorObject(item, path: ImportPath.index(r.childPath(K.items) + ".data", index)))
        }
        return lines
    }

    /// A line's price (or `plan`, its older name) and the product it sells: the price's
    /// `product`, or the plan's own `id` when the plan names no product.
    static func price(of line: FieldReader) throws(FieldError) -> (price: FieldReader, product: String) {
        if let price = try line.vendorObject(K.price) {
            guard let product = try StripeMapper.idOrObject(price, K.product) else { throw price.vendorMissing(K.product) }
            return (price, product)
        }
        guard let plan = try line.vendorObject(K.plan) else {
            throw FieldError(path: line.childPath(K.price), message: "missing required field (or \"plan\", as older API versions name it)")
        }
        let named = try StripeMapper.idOrObject(plan, K.product)
        let planID = try plan.vendorNonEmptyString(K.id)
        guard let product = named ?? planID else { throw plan.vendorMissing(K.product) }
        return (plan, product)
    }
}
