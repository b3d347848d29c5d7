import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// Applies events to loaded profiles and the configuration. No clock; no files but the
/// profiles `load` reads when a transfer's holder was not loaded yet.
///
/// Events are applied in `IngestEvent.applicationOrder`. A transaction or renewal info is
/// set only by an event newer than the one that last set it (`RecordStamp`), and transactions
/// are kept in purchase order, so any arrival order of the same events gives the same profile.
/// An event for a purchase its customer transferred away applies to the purchase's current
/// holder (`TransferredHolder`).
struct EventApplier {
    var configuration: ProductConfiguration
    /// Every profile an event may touch, loaded by the caller (nil: no such customer yet).
    var profiles: [String: Profile?]
    /// Loads a profile `profiles` lacks (the holder of a transferred purchase); nil: none are loaded.
    var load: ((String) throws(EntitlementError) -> Profile?)?
    /// Customers whose profile changed, in first-changed order.
    private(set) var changed: [String] = []
    /// The holder each event applied to, by `vendor id`, when a transfer had moved its purchase
    /// away from the customer the event names.
    private(set) var holders: [String: String] = [:]
    /// App Store original transactions a transfer moved, and to whom (for the customer index).
    private(set) var movedAppStoreOriginals: [(original: String, to: String)] = []

    init(configuration: ProductConfiguration, profiles: [String: Profile?]) {
        self.configuration = configuration
        self.profiles = profiles
    }

    /// The customers an event reads or writes.
    static func customers(of event: IngestEvent) -> [String] {
        var users = event.customer.map { [$0] } ?? []
        if let transfer = event.effects.transfer { users += transfer.from + [transfer.to] }
        return users
    }

    mutating func apply(_ event: IngestEvent) -> EventOutcome {
        if let reason = event.effects.noChange { return .noChange(reason) }
        if let transfer = event.effects.transfer {
            return applyTransfer(transfer, event: event)
        }
        if let revocation = event.effects.playRevocation { return applyRevocation(revocation, event: event) }
        guard let document = event.effects.document else { return .noChange("no records") }
        guard let named = event.customer else {
            guard event.effects.holderOf.isEmpty else {
                let ids = event.effects.holderOf.map { "'\(Terminal.escape($0))'" }.joined(separator: ", ")
                guard event.effects.holderSwept else {
                    return .failed("unmatched: no appAccountToken, and the index names no customer holding original transaction \(ids); "
                                   + "kept for `entitlement ingest`, which searches the profiles")
                }
                return .failed("unmatched: no appAccountToken, and no single customer holds original transaction \(ids) yet; "
                               + "kept, and retried by each `entitlement ingest` (import or grant that purchase to its customer)")
            }
            return .failed("the event does not say which customer it is about (App Store: no appAccountToken)")
        }
        let addressed = named
        var customer = named
        let resolution = TransferredHolder.resolve(TransferredHolder.records(of: document), addressed: addressed) { (user) throws(TransferredHolder.Unreadable) in
            try self.profile(of: user)
        }
        switch resolution {
        case .addressed: break
        case .holder(let holder, _): customer = holder
        case .failed(let why): return .failed(why)
        }
        let redirected = !customer.utf8.elementsEqual(addressed.utf8)
        guard case .some(let stored) = profiles[customer] else { return .failed("customer '\(Terminal.escape(customer))' was not loaded") }
        if stored == nil {
            do throws(UserID.Problem) { _ = try UserID.validateNew(customer) } catch {
                return .failed("'\(Terminal.escape(customer))' cannot be a user id: \(error)")
            }
        }
        let stamp = RecordStamp(event)
        var fresh = document
        fresh.transactions = document.transactions.filter { mapped in
            guard let current = stored?.transactions.first(where: { $0.transactionID == mapped.transaction.transactionID && $0.store == mapped.transaction.store })
            else { return true }
            return stamp.supersedes(stored: current.rawMember(RecordStamp.key))
        }
        fresh.renewals = document.renewals.filter { stamp.supersedes(stored: stored?.renewalInfo[$0.originalTransactionID]?.rawMember(RecordStamp.key)) }
        let stale = fresh.transactions.isEmpty && fresh.renewals.isEmpty
        var (profile, _) = ProfileMerger.merge(fresh, into: Self.clearingKeptFields(of: fresh.transactions, in: stored), userID: customer,
                                               newProfileID: ProfileIngestFields.profileID(for: customer), now: event.time)
        for mapped in fresh.transactions {
            guard let index = profile.transactions.firstIndex(where: { $0.transactionID == mapped.transaction.transactionID && $0.store == mapped.transaction.store })
            else { continue }
            profile.transactions[index].raw = stamp.stamping(profile.transactions[index].raw)
        }
        for mapped in fresh.renewals {
            guard var info = profile.renewalInfo[mapped.originalTransactionID] else { continue }
            info.raw = stamp.stamping(info.raw)
            profile.renewalInfo[mapped.originalTransactionID] = info
        }
        // The ids the event gives its customer stay with that customer, not with the holder.
        finish(&profile, event: event, aliases: !redirected)
        (configuration, _) = ConfigurationExtender.extend(configuration, with: document.productMappings)
        store(profile, was: stored)
        if redirected {
            holders["\(event.vendor.rawValue) \(event.id)"] = customer
            if !event.effects.aliases.isEmpty, case .some(.some(var named)) = profiles[addressed] {
                let before = named
                ProfileIngestFields.addAliases(event.effects.aliases, to: &named)
                store(named, was: before)
            }
        }
        return stale ? .outOfOrder : .applied
    }

    /// A customer's profile: loaded by the caller, else through `load` (and kept).
    private mutating func profile(of user: String) throws(TransferredHolder.Unreadable) -> Profile? {
        if case .some(let profile) = profiles[user] { return profile }
        guard let load else { throw .init(reason: "customer '\(Terminal.escape(user))' was not loaded") }
        do throws(EntitlementError) {
            let profile = try load(user)
            profiles[user] = .some(profile)
            return profile
        } catch {
            throw .init(reason: error.description)
        }
    }

    /// An event states its transactions whole. Import keeps a stored price, currency, offer code
    /// or upgrade flag when a document leaves it out; for an event that would let an older event
    /// decide them in one arrival order and not in another, so they are cleared first and the
    /// newest event alone decides them (a revocation by `entitlement revoke` still stays).
    static func clearingKeptFields(of fresh: [MappedTransaction], in stored: Profile?) -> Profile? {
        guard var profile = stored else { return nil }
        for mapped in fresh {
            guard let index = profile.transactions.firstIndex(where: { $0.transactionID == mapped.transaction.transactionID && $0.store == mapped.transaction.store })
            else { continue }
            profile.transactions[index].price = nil
            profile.transactions[index].currency = nil
            profile.transactions[index].offerCode = nil
            profile.transactions[index].isUpgraded = nil
        }
        return profile
    }

    /// What every applied event does to its profile: aliases, the newest event, canonical order.
    private func finish(_ profile: inout Profile, event: IngestEvent, aliases: Bool = true) {
        if aliases { ProfileIngestFields.addAliases(event.effects.aliases, to: &profile) }
        ProfileIngestFields.noteEvent(event, in: &profile)
        if let created = profile.createdAt, event.time < created { profile.createdAt = event.time }
        profile.transactions = Transaction.canonicalOrder(profile.transactions)
    }

    private mutating func store(_ profile: Profile, was stored: Profile?) {
        guard profile != stored || profile.json != stored?.json else { return }
        profiles[profile.customerUserID] = .some(profile)
        if !changed.contains(profile.customerUserID) { changed.append(profile.customerUserID) }
    }

    /// A voided Play purchase: its transactions revoked in the profile holding its token.
    private mutating func applyRevocation(_ revocation: PlayRevocation, event: IngestEvent) -> EventOutcome {
        guard let customer = event.customer else {
            guard event.effects.holderSwept else {
                return .failed("unmatched: no single customer found holding Google Play purchase token '\(Terminal.escape(revocation.token))'; "
                               + "kept, and retried by each `entitlement ingest`")
            }
            return .noChange(PlayRevocation.notHeld(revocation.token))
        }
        guard case .some(.some(let stored)) = profiles[customer] else { return .failed("customer '\(Terminal.escape(customer))' was not loaded") }
        guard var profile = revocation.revoking(in: stored) else {
            return .noChange("purchase token '\(Terminal.escape(revocation.token))' is revoked already")
        }
        finish(&profile, event: event)
        store(profile, was: stored)
        return .applied
    }

    private mutating func applyTransfer(_ transfer: EventTransfer, event: IngestEvent) -> EventOutcome {
        guard case .some(let target) = profiles[transfer.to] else { return .failed("customer '\(Terminal.escape(transfer.to))' was not loaded") }
        var sources: [Profile] = []
        for user in transfer.from where user != transfer.to {
            guard case .some(let source) = profiles[user] else { return .failed("customer '\(Terminal.escape(user))' was not loaded") }
            if let source { sources.append(source) }
        }
        // A move to one of the source's own aliases (no customer of its own) is a move to itself.
        if target == nil, let owner = sources.first(where: { $0.customerAliases.contains(transfer.to) }) {
            return .noChange(TransferError.toOwnAlias(from: owner.customerUserID, alias: transfer.to).message)
        }
        do throws(TransferError) {
            let note = TransferNote(at: event.time, by: "\(event.vendor.rawValue) event \(event.id)", reason: event.type,
                                    event: EventReference(vendor: event.vendor.rawValue, id: event.id))
            let result = try TransferPlanner.transfer(from: sources, to: target, userID: transfer.to, transactionIDs: transfer.transactionIDs,
                                                      note: note, newProfileID: ProfileIngestFields.profileID(for: transfer.to))
            for (before, after) in zip(sources, result.sources) { store(after, was: before) }
            let movedIDs = Set(result.moved)
            for original in Set(result.target.transactions.filter { $0.store == .appStore && movedIDs.contains($0.transactionID) }.map(\.originalTransactionID)).sorted() {
                movedAppStoreOriginals.append((original, transfer.to))
            }
            var moved = result.target
            finish(&moved, event: event)
            store(moved, was: target)
            return .applied
        } catch {
            return .failed(error.message)
        }
    }
}
