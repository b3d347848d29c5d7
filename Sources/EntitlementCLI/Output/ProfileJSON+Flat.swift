import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

extension ProfileJSON {
    /// `render(_:engine:at:explain: false, into:)` over a `FlatProfile`, with `levels` the access
    /// levels of its entitlements in key order: the same bytes, written from the file's byte
    /// ranges (no `Profile`, no `String` per transaction). `FlatStatusTests` compare the two.
    static func render(_ flat: FlatProfile, levels: [AccessLevel], engine: FlatStatusEngine, into sink: ByteSink) {
        var out = JSONStream(style: .pretty, into: sink)
        out.beginObject()
        out.key("access_levels")
        out.beginObject()
        for level in levels {
            out.key(named: level.id)
            out.beginObject()
            level.writeMembers(into: &out)
            out.endObject()
        }
        out.endObject()
        out.key("created_at"); out.date(flat.createdAt)
        out.key("custom_attributes"); out.value(.object(customAttributes(flat)))
        out.key("customer_user_id"); out.string(text(flat, flat.customerUserID))
        out.key("evaluated_at"); out.date(flat.date)
        out.key("last_event_at"); out.date(lastEventAt(flat))
        out.key("non_subscriptions")
        out.value { depth, sink in appendNonSubscriptions(flat, depth: depth, to: sink) }
        out.key("profile_id"); out.string(flat.profileID.map { text(flat, $0) })
        out.key("subscriptions")
        writeSubscriptions(flat, engine: engine, into: &out)
        out.key("total_revenue_usd"); out.value(.double(flat.totalRevenueUSD()))
        out.endObject()
        out.raw(0x0A)
    }

    /// `writeSubscriptions` over a `FlatProfile`.
    static func writeSubscriptions(_ flat: FlatProfile, engine: FlatStatusEngine, into out: inout JSONStream) {
        let latest = flat.latestSubscriptions()
        out.beginObject()
        guard !latest.isEmpty else { return out.endObject() }
        for (position, chain) in zip(latest, flat.chains(of: latest)) {
            let transaction = flat.transactions[position], first = flat.transactions[chain.first]
            let access = engine.access(position, chainEnd: chain.end, in: flat)
            let renewal = flat.renewal(of: position)
            out.key(named: text(flat, transaction.product ?? 0..<0))
            out.beginObject()
            out.key("activated_at"); out.date(first.effectiveStart)
            out.key("billing_issue_detected_at"); out.date(renewal?.billingIssueDetectedAt)
            out.key("expires_at"); out.date(transaction.expiresAt)
            out.key("is_active"); out.bool(access.givesAccess)
            out.key("is_in_grace_period"); out.bool(access.inGrace)
            out.key("is_lifetime"); out.bool(transaction.expiresAt == nil)
            out.key("is_refund"); out.bool(transaction.revokedAt != nil)
            out.key("is_sandbox"); out.bool(transaction.isSandbox)
            out.key("period_type"); out.string(transaction.periodType.rawValue)
            out.key("renewed_at"); out.date(sameBytes(flat, first.id, transaction.id) ? nil : transaction.purchasedAt)
            out.key("starts_at"); out.date(transaction.effectiveStart)
            out.key("store"); writeStore(flat, transaction.store, into: out.sink)
            out.key("unsubscribed_at"); out.date(renewal?.unsubscribedAt)
            out.key("vendor_original_transaction_id"); writeRange(flat, transaction.original, into: out.sink)
            out.key("vendor_product_id"); writeRange(flat, transaction.product ?? 0..<0, into: out.sink)
            out.key("vendor_transaction_id"); writeRange(flat, transaction.id, into: out.sink)
            out.key("will_renew"); out.bool(renewal?.willRenew ?? false)
            out.endObject()
            out.sink.drainIfFull()
        }
        out.endObject()
    }

    /// `custom_attributes` as `Profile.customAttributes` reads it: the object parsed, or empty.
    static func customAttributes(_ flat: FlatProfile) -> JSONObject {
        guard let range = flat.customAttributes else { return JSONObject() }
        return (try? JSONParser.parse(UnsafeBufferPointer(rebasing: flat.bytes[range])))?.objectValue ?? JSONObject()
    }

    /// `Profile.lastEventAt`: `last_event.at`, from the one small object the scan marked.
    static func lastEventAt(_ flat: FlatProfile) -> Date? {
        guard let range = flat.lastEvent, case .object(let fields)? = try? JSONParser.parse(UnsafeBufferPointer(rebasing: flat.bytes[range])) else { return nil }
        return fields["at"]?.stringValue.flatMap(ISODate.parse)
    }

    static func text(_ flat: FlatProfile, _ range: Range<Int>) -> String {
        ScannedFields.makeString(range, flat.bytes)
    }

    static func sameBytes(_ flat: FlatProfile, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && flat.bytes[a].elementsEqual(flat.bytes[b])
    }

    /// A string of the file as `JSONStream.writeString` writes it: copied when nothing in it
    /// needs an escape (the scan let no quote, backslash or control character through, but DEL may be there).
    @inline(__always)
    static func writeRange(_ flat: FlatProfile, _ range: Range<Int>, into sink: ByteSink) {
        let text = UnsafeBufferPointer(rebasing: flat.bytes[range])
        guard !text.contains(0x7F) else { return JSONStream.writeString(ScannedFields.makeString(range, flat.bytes), into: sink) }
        sink.append(UInt8(ascii: "\""))
        sink.append(text)
        sink.append(UInt8(ascii: "\""))
    }

    /// A transaction's store name, `manual` when it has none.
    @inline(__always)
    static func writeStore(_ flat: FlatProfile, _ store: Range<Int>?, into sink: ByteSink) {
        guard let store else { return sink.append("\"manual\"") }
        writeRange(flat, store, into: sink)
    }
}
