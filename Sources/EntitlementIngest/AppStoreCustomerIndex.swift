import FoundationEssentials
import Synchronization
import EntitlementBasics
import EntitlementImport
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// Finds the customer of an App Store notification that carries no `appAccountToken`: the
/// one whose profile holds the notification's original transaction (docs/store-format.md,
/// "App Store original transactions").
///
/// `index/app-store-original-transaction/XX/DIGEST` holds the customer user id, where DIGEST
/// is the SHA-256 (hex) of the original transaction id. The index is a cache: an entry is
/// trusted only when the profile it names still holds the transaction; otherwise (a
/// missing entry, a transfer, a hand-edited store) the profiles are swept once, with a byte
/// prefilter on the id, and the entry is rewritten in the batch's journal.
struct AppStoreCustomerIndex {
    static let directory = EntitlementStore.appStoreCustomerIndexDirectory

    let store: EntitlementStore
    /// False: the index only (the webhook's deadline); a miss is left to `ingest`.
    let sweeps: Bool
    /// Entries to write in the batch's journal, by relative path.
    private(set) var changes: [String: EntitlementStore.FileChange] = [:]

    init(store: EntitlementStore, sweeps: Bool = true) {
        self.store = store
        self.sweeps = sweeps
    }

    static func relativePath(_ originalTransactionID: String) -> String {
        EntitlementStore.relativeAppStoreCustomerIndexPath(originalTransactionID)
    }

    /// Every unit's App Store events without a customer, given the one customer that holds their
    /// original transaction; an event no single customer holds keeps none (and fails, kept).
    mutating func resolving(_ batch: [(unit: IngestUnit, events: [IngestEvent])]) -> [(unit: IngestUnit, events: [IngestEvent])] {
        batch.map { item in
            (item.unit, item.events.map { event in
                guard event.customer == nil, !event.effects.holderOf.isEmpty else { return event }
                var resolved = event
                resolved.customer = customer(holding: event.effects.holderOf)
                resolved.effects.holderSwept = sweeps
                return resolved
            })
        }
    }

    /// Notes the customer of an applied App Store event, so a later notification without a token finds it.
    mutating func note(_ event: IngestEvent) {
        guard event.vendor == .appstore, let customer = event.customer, let document = event.effects.document else { return }
        for original in Set(document.transactions.map(\.transaction.originalTransactionID)) where entry(original) != customer {
            remember(original, customer)
        }
    }

    /// Points the entry of a transferred original transaction at its new holder.
    mutating func moved(_ original: String, to user: String) {
        if entry(original) != user { remember(original, user) }
    }

    /// The single customer holding one of `originals`, from the index, else from a sweep. An entry
    /// naming a customer who transferred the purchase away is trusted too: the applier follows
    /// the transfer records to the holder (`TransferredHolder`).
    mutating func customer(holding originals: [String]) -> String? {
        for original in originals {
            if let user = entry(original), holdsOrMoved(try? store.loadProfile(userID: user), original) { return user }
        }
        guard sweeps else { return nil }
        let holders = sweep(for: originals)
        guard Set(holders.map(\.user)).count == 1, let found = holders.first else { return nil }
        for (original, user) in holders { remember(original, user) }
        return found.user
    }

    private func entry(_ original: String) -> String? {
        let path = Self.relativePath(original)
        if let pending = changes[path] { return String(decoding: pending.bytes, as: UTF8.self) }
        guard let bytes = try? store.fileSystem.readFile("\(store.root)/\(path)"), !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func remember(_ original: String, _ user: String) {
        let path = Self.relativePath(original)
        changes[path] = .init(path: path, bytes: Array(user.utf8))
    }

    private func holdsOrMoved(_ profile: Profile??, _ original: String) -> Bool {
        guard case .some(.some(let profile)) = profile else { return false }
        let record = TransferredHolder.Record(store: .appStore, id: nil, original: original)
        return TransferredHolder.holds(profile, record) || TransferredHolder.movedTo(profile, record) != nil
    }

    /// Every (original transaction, customer) pair among the profiles.
    private func sweep(for originals: [String]) -> [(original: String, user: String)] {
        let wanted = Set(originals)
        let found = Mutex<[(original: String, user: String)]>([])
        let sweep = ProfileSweep<[(original: String, user: String)]>(
            scan: ProfileScan(store: store), prefilter: ProfilePrefilter(containingAnyOf: originals), makePart: { [] },
            visit: { part, profile in
                for transaction in profile.transactions where transaction.store == .appStore && wanted.contains(transaction.originalTransactionID) {
                    part.append((transaction.originalTransactionID, profile.customerUserID))
                }
            }, fail: { _, _ in })
        try? sweep.run { part in found.withLock { $0 += part } }
        var seen: Set<String> = []
        return found.withLock { $0 }.filter { seen.insert("\($0.original)\u{0}\($0.user)").inserted }
    }
}
