import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Who moved purchases, when and why: written into both profiles' `transfers` list.
package struct TransferNote: Sendable, Equatable {
    package var at: Date
    /// The actor, or `revenuecat event ID`.
    package var by: String
    package var reason: String
    /// The vendor event that asked for the move (`history --explain` finds its audit record); nil for a person.
    package var event: EventReference?

    package init(at: Date, by: String, reason: String, event: EventReference? = nil) {
        self.at = at
        self.by = by
        self.reason = reason
        self.event = event
    }

}

/// Moves transactions (and their renewal info) from profiles to another. Pure.
///
/// Used by RevenueCat `TRANSFER` events and by `entitlement transfer`; the caller writes every
/// profile it returns in one journal, so the move is all or nothing.
package enum TransferPlanner {
    static let transfersKey = IngestRecordKeys.transfers

    package struct Result: Sendable {
        package var sources: [Profile]
        package var target: Profile
        package var moved: [String]
    }

    /// With no `transactionIDs`, every store purchase moves (manual grants stay with their customer).
    package static func transfer(from sources: [Profile], to target: Profile?, userID: String, transactionIDs: [String],
                                 note: TransferNote, newProfileID: String) throws(TransferError) -> Result {
        var result = Result(sources: sources, target: target ?? Profile(profileID: newProfileID, customerUserID: userID, createdAt: note.at), moved: [])
        for id in transactionIDs where !sources.contains(where: { $0.transaction(id: id) != nil }) {
            throw .unknownTransaction(id)
        }
        for index in result.sources.indices {
            var source = result.sources[index]
            guard source.customerUserID != userID else { throw .sameCustomer(userID) }
            let moving = source.transactions.filter { transactionIDs.isEmpty ? !$0.isManualGrant : transactionIDs.contains($0.transactionID) }
            guard !moving.isEmpty else { continue }
            let movingKeys = Set(moving.map { "\($0.store.rawValue) \($0.transactionID)" })
            source.transactions.removeAll { movingKeys.contains("\($0.store.rawValue) \($0.transactionID)") }
            for transaction in moving where !result.target.transactions.contains(where: { $0.transactionID == transaction.transactionID && $0.store == transaction.store }) {
                result.target.transactions.append(transaction)
            }
            for original in Set(moving.map(\.originalTransactionID)) where !source.transactions.contains(where: { $0.originalTransactionID == original }) {
                if let info = source.renewalInfo.removeValue(forKey: original), result.target.renewalInfo[original] == nil {
                    result.target.renewalInfo[original] = info
                }
            }
            let ids = moving.map(\.transactionID)
            append(note, direction: "out", other: userID, ids: ids, to: &source)
            append(note, direction: "in", other: source.customerUserID, ids: ids, to: &result.target)
            result.moved += ids
            result.sources[index] = source
        }
        result.target.transactions = Transaction.canonicalOrder(result.target.transactions)
        return result
    }

    /// Adds one entry to the profile's `transfers` audit list.
    private static func append(_ note: TransferNote, direction: String, other: String, ids: [String], to profile: inout Profile) {
        var list: [JSONValue] = []
        if case .array(let items)? = profile.raw[transfersKey] { list = items }
        list.append(.object(JSONObject([
            ("at", .string(ISODate.format(note.at))), ("direction", .string(direction)),
            (direction == "out" ? "to" : "from", .string(other)), ("transactions", .array(ids.map(JSONValue.string))),
            ("by", .string(note.by)), ("reason", .string(note.reason)),
        ] + (note.event.map { [("event", $0.json)] } ?? []))))
        profile.raw[transfersKey] = .array(list)
    }
}
