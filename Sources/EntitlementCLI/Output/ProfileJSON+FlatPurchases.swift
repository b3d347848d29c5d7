import EntitlementBasics
import EntitlementJSON
import EntitlementRules

extension ProfileJSON {
    /// `appendNonSubscriptions` over a `FlatProfile`: the same constant runs between values
    /// (`PurchaseLayout`), with each id copied from the file's bytes.
    static func appendNonSubscriptions(_ flat: FlatProfile, depth: Int, to bytes: ByteSink) {
        let groups = flat.purchasesByProduct()
        guard !groups.isEmpty else { return bytes.append("{}") }
        let layout = PurchaseLayout(depth: depth)
        bytes.append(UInt8(ascii: "{"))
        for (number, group) in groups.enumerated() {
            if number > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(layout.productIndent)
            let product = flat.productRange(group.product)
            writeRange(flat, product, into: bytes)
            bytes.append(": [")
            var productPart = layout.productPrefix
            JSONWriter.writeString(text(flat, product), into: &productPart)
            productPart.append(contentsOf: layout.transactionPrefix)
            for (position, index) in group.positions.enumerated() {
                let transaction = flat.transactions[index]
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                let flags = (transaction.isConsumable ? 4 : 0) | (transaction.revokedAt != nil ? 2 : 0) | (transaction.isSandbox ? 1 : 0)
                bytes.append(layout.openings[flags])
                writeRange(flat, transaction.id, into: bytes)
                bytes.append(layout.purchasedAt)
                ISODate.append(transaction.purchasedAt, to: bytes)
                bytes.append(layout.store)
                writeStore(flat, transaction.store, into: bytes)
                bytes.append(layout.originalID)
                writeRange(flat, transaction.original, into: bytes)
                bytes.append(productPart)
                writeRange(flat, transaction.id, into: bytes)
                bytes.append(layout.closing)
                bytes.drainIfFull()
            }
            bytes.append(layout.productClosing)
        }
        bytes.append(layout.objectClosing)
    }
}
