import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementImport

/// Where a transferred purchase is now. An event a vendor addresses to a customer who moved
/// the purchase away (`entitlement transfer`, a RevenueCat `TRANSFER`) applies to the customer
/// holding it: the profile's `transfers` entries (direction `out`) name the next customer, and
/// so on along a chain (A → B → C), until a customer holds the purchase or names no one further.
///
/// A purchase is one of the event's records, matched by transaction id or original transaction
/// id: a renewal of a transferred subscription follows the subscription. Pure: profiles come
/// from `profile`, which loads them.
enum TransferredHolder {
    /// Where an event's records are held now.
    enum Resolution: Equatable {
        /// The customer the event names (it holds them, or never moved them).
        case addressed
        /// Another customer, reached through the transfer records of `path` (the addressed customer first).
        case holder(String, path: [String])
        case failed(String)
    }

    /// A profile along the chain that could not be read: the event fails with this reason, kept.
    struct Unreadable: Error {
        var reason: String
    }

    /// One record of an event: a transaction (store, id, original), or a renewal info (original only).
    struct Record {
        var store: Store?
        var id: String?
        var original: String

        /// The id named in messages.
        var name: String { id ?? original }
    }

    static func records(of document: ImportDocument) -> [Record] {
        document.transactions.compactMap { mapped in
            let transaction = mapped.transaction
            guard !transaction.isManualGrant else { return nil }  // manual grants never move
            return Record(store: transaction.store, id: transaction.transactionID, original: transaction.originalTransactionID)
        } + document.renewals.map { Record(store: nil, id: nil, original: $0.originalTransactionID) }
    }

    /// The one customer holding every record that moved; `.addressed` when none moved.
    static func resolve(_ records: [Record], addressed: String,
                        profile: (String) throws(Unreadable) -> Profile?) -> Resolution {
        var found: (user: String, path: [String], record: Record)?
        for record in records {
            var path = [addressed]
            var user = addressed
            while true {
                let current: Profile?
                do throws(Unreadable) { current = try profile(user) } catch { return .failed(error.reason) }
                guard let current, !holds(current, record), let next = movedTo(current, record) else { break }
                if path.contains(where: { $0.utf8.elementsEqual(next.utf8) }) {
                    let names = (path + [next]).map { "'\(Terminal.escape($0))'" }.joined(separator: " → ")
                    return .failed("the transfer records of \(names) form a cycle for transaction '\(Terminal.escape(record.name))', "
                                   + "and none of them holds it; kept: fix the profiles' \"transfers\", then run 'entitlement ingest'")
                }
                path.append(next)
                user = next
            }
            guard !user.utf8.elementsEqual(addressed.utf8) else { continue }
            if let other = found, !other.user.utf8.elementsEqual(user.utf8) {
                return .failed("its purchases were transferred to different customers: '\(Terminal.escape(other.record.name))' to "
                               + "'\(Terminal.escape(other.user))', '\(Terminal.escape(record.name))' to '\(Terminal.escape(user))'; kept")
            }
            found = (user, Array(path.dropLast()), record)
        }
        guard let found else { return .addressed }
        return .holder(found.user, path: found.path)
    }

    /// Whether the profile holds the record's purchase (the transaction, or one of its subscription).
    static func holds(_ profile: Profile, _ record: Record) -> Bool {
        profile.transactions.contains { transaction in
            !transaction.isManualGrant && (record.store == nil || transaction.store == record.store)
                && (transaction.originalTransactionID == record.original || (record.id != nil && transaction.transactionID == record.id))
        }
    }

    /// The customer the profile's newest `out` transfer naming the record's id or original went to.
    static func movedTo(_ profile: Profile, _ record: Record) -> String? {
        guard case .array(let entries)? = profile.rawMember(IngestRecordKeys.transfers) else { return nil }
        for entry in entries.reversed() {
            guard let object = entry.objectValue, object["direction"]?.stringValue == "out", let to = object["to"]?.stringValue,
                  case .array(let ids)? = object["transactions"] else { continue }
            if ids.contains(where: { $0.stringValue == record.original || ($0.stringValue != nil && $0.stringValue == record.id) }) { return to }
        }
        return nil
    }
}
