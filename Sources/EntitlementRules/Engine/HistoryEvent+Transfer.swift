import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Which way a transfer went, seen from the profile whose history is read.
package struct TransferSide: Equatable, Sendable {
    package enum Direction: String, Sendable {
        /// The purchase came from `other`.
        case `in`
        /// The purchase went to `other`.
        case out
    }

    package var direction: Direction
    package var other: String
    /// The vendor event that moved it (RevenueCat `TRANSFER`); nil for `entitlement transfer`.
    package var event: EventReference?
}

extension HistoryEvent {
    /// A transfer out of this profile: the transaction is a stand-in with its id alone.
    package var holdsStandIn: Bool { kind == .transfer && transaction.store.rawValue.isEmpty }

    /// The vendor event behind this change, for `history --explain`: a transfer's own event, else
    /// the event that last set a store purchase's record (`applied_event`). Nil for what a person
    /// did (a grant, or a revocation or restore with an actor) and for records no event set.
    package var sourceEvent: EventReference? {
        if kind == .transfer { return transfer?.event }
        guard !transaction.isManualGrant, actor == nil else { return nil }
        return EventReference(transaction.rawMember(IngestRecordKeys.appliedEvent))
    }

    /// One event per transaction of each entry of the profile's `transfers` list
    /// (`{at, direction, from|to, transactions, by, reason}`, written by `TransferPlanner`).
    ///
    /// A profile a purchase left no longer holds it, so the event then carries a stand-in
    /// with the id alone (store and product unknown: `history` of the other customer has them).
    /// Entries this version cannot read are skipped; `verify` reports them.
    static func transferEvents(of profile: Profile) -> [HistoryEvent] {
        guard case .array(let entries)? = profile.rawMember(IngestRecordKeys.transfers) else { return [] }
        var events: [HistoryEvent] = []
        for entry in entries {
            guard let object = entry.objectValue, let at = object["at"]?.stringValue.flatMap(ISODate.parse),
                  let direction = object["direction"]?.stringValue.flatMap(TransferSide.Direction.init(rawValue:)),
                  let other = object[direction == .in ? "from" : "to"]?.stringValue,
                  case .array(let ids)? = object["transactions"] else { continue }
            for id in ids.compactMap(\.stringValue) {
                let transaction = profile.transaction(id: id)
                    ?? Transaction(transactionID: id, productID: nil, store: Store(rawValue: ""), type: TransactionType(rawValue: ""), purchasedAt: at, expiresAt: nil)
                events.append(HistoryEvent(at: at, kind: .transfer, transaction: transaction, actor: object["by"]?.stringValue,
                                           reason: object["reason"]?.stringValue,
                                           transfer: TransferSide(direction: direction, other: other, event: EventReference(object["event"]))))
            }
        }
        return events
    }
}
