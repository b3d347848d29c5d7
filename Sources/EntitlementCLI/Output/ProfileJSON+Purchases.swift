import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

extension ProfileJSON {
    /// `non_subscriptions`, pretty-printed at `depth`: the bytes `JSONStream` would write
    /// member by member (the reference `ProfileJSONPurchasesTests` compares with), written in
    /// a few copies per purchase.
    ///
    /// A profile can hold thousands of one-time purchases; streamed member by member, each
    /// costs about forty small appends and a `String`-keyed lookup. Here the text between two
    /// values is one constant run (the three flags pick one of eight prefixes), the product's
    /// part is written once per product, and products are grouped without hashing while
    /// there are few of them.
    static func appendNonSubscriptions(_ profile: Profile, depth: Int, to bytes: ByteSink) {
        let transactions = profile.transactions
        var purchases: [Int] = []
        purchases.reserveCapacity(transactions.count)
        for index in transactions.indices where !transactions[index].isManualGrant && !isSubscription(transactions[index]) {
            purchases.append(index)
        }
        // A stable sort by purchase date; files are usually in that order already.
        if zip(purchases, purchases.dropFirst()).contains(where: { transactions[$1].purchasedAt < transactions[$0].purchasedAt }) {
            purchases = purchases.enumerated().sorted {
                let a = transactions[$0.element].purchasedAt, b = transactions[$1.element].purchasedAt
                return a != b ? a < b : $0.offset < $1.offset
            }.map(\.element)
        }
        var groups = ProductGroups()
        for index in purchases {
            guard let productID = transactions[index].productID else { continue }
            groups.add(index, to: productID)
        }
        guard !groups.products.isEmpty else { return bytes.append("{}") }
        let layout = PurchaseLayout(depth: depth)
        bytes.append(UInt8(ascii: "{"))
        for (number, slot) in groups.products.indices.sorted(by: { JSONKey.precedes(groups.products[$0], groups.products[$1]) }).enumerated() {
            if number > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(layout.productIndent)
            JSONStream.writeString(groups.products[slot], into: bytes)
            bytes.append(": [")
            var productPart = layout.productPrefix
            JSONWriter.writeString(groups.products[slot], into: &productPart)
            productPart.append(contentsOf: layout.transactionPrefix)
            for (position, index) in groups.members[slot].enumerated() {
                let transaction = transactions[index]
                let transactionID = transaction.transactionID  // written twice, read once
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                let flags = (transaction.type.is(.consumablePurchase) ? 4 : 0) | (transaction.revokedAt != nil ? 2 : 0)
                    | (transaction.environment == .sandbox ? 1 : 0)
                bytes.append(layout.openings[flags])
                JSONStream.writeString(transactionID, into: bytes)
                bytes.append(layout.purchasedAt)
                ISODate.append(transaction.purchasedAt, to: bytes)
                bytes.append(layout.store)
                JSONStream.writeString(transaction.store.rawValue, into: bytes)
                bytes.append(layout.originalID)
                JSONStream.writeString(transaction.originalTransactionID, into: bytes)
                bytes.append(productPart)
                JSONStream.writeString(transactionID, into: bytes)
                bytes.append(layout.closing)
                bytes.drainIfFull()
            }
            bytes.append(layout.productClosing)
        }
        bytes.append(layout.objectClosing)
    }

}

/// Purchases by product id, in order of first appearance.
private struct ProductGroups {
    var products: [String] = []
    var members: [[Int]] = []
    /// Used once there are too many products to compare one by one.
    private var slots: [String: Int] = [:]
    private var last = -1

    mutating func add(_ index: Int, to productID: String) {
        let slot = self.slot(of: productID)
        members[slot].append(index)
        last = slot
    }

    private mutating func slot(of productID: String) -> Int {
        if last >= 0, products[last] == productID { return last }
        if products.count <= 16 {
            if let found = products.firstIndex(of: productID) { return found }
            if products.count == 16 { for (slot, product) in products.enumerated() { slots[product] = slot } }
        } else if let found = slots[productID] {
            return found
        }
        products.append(productID)
        members.append([])
        if products.count > 16 { slots[productID] = products.count - 1 }
        return products.count - 1
    }
}

/// The constant text of one purchase object, pretty-printed: what lies between its values.
struct PurchaseLayout {
    var productIndent: [UInt8]
    /// Indexed by the flags is_one_time (4), is_refund (2), is_sandbox (1): the text up to
    /// the opening quote of `purchase_id`'s value.
    var openings: [[UInt8]] = []
    var purchasedAt: [UInt8]
    var store: [UInt8]
    var originalID: [UInt8]
    /// Up to the product id's value, and after it up to `vendor_transaction_id`'s value.
    var productPrefix: [UInt8]
    var transactionPrefix: [UInt8]
    var closing: [UInt8]
    var productClosing: [UInt8]
    var objectClosing: [UInt8]

    init(depth: Int) {
        func line(_ depth: Int) -> String { "\n" + String(repeating: " ", count: depth * 2) }
        let field = "," + line(depth + 3)
        productIndent = Array(line(depth + 1).utf8)
        for flags in 0..<8 {
            func flag(_ bit: Int) -> String { flags & bit != 0 ? "true" : "false" }
            openings.append(Array((line(depth + 2) + "{" + line(depth + 3) + "\"is_one_time\": " + flag(4) + field + "\"is_refund\": " + flag(2)
                + field + "\"is_sandbox\": " + flag(1) + field + "\"purchase_id\": ").utf8))
        }
        purchasedAt = Array((field + "\"purchased_at\": \"").utf8)
        store = Array(("\"" + field + "\"store\": ").utf8)
        originalID = Array((field + "\"vendor_original_transaction_id\": ").utf8)
        productPrefix = Array((field + "\"vendor_product_id\": ").utf8)
        transactionPrefix = Array((field + "\"vendor_transaction_id\": ").utf8)
        closing = Array((line(depth + 2) + "}").utf8)
        productClosing = Array((line(depth + 1) + "]").utf8)
        objectClosing = Array((line(depth) + "}").utf8)
    }
}
