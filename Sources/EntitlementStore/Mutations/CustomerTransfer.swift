import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// `entitlement transfer FROM TO`: support's way to do what a RevenueCat `TRANSFER` event
/// does. The command parses and presents; this reads, plans (`TransferPlanner`, the same
/// planner the event uses) and writes both profiles in one journal, so the move is all or
/// nothing, and in a team store one commit.
package struct CustomerTransfer: Sendable {
    package var from: String
    package var to: String
    /// Empty: every store purchase of FROM (manual grants stay).
    package var transactionIDs: [String]
    package var note: TransferNote

    package init(from: String, to: String, transactionIDs: [String], note: TransferNote) {
        self.from = from
        self.to = to
        self.transactionIDs = transactionIDs
        self.note = note
    }

    /// What a transfer changes: both profiles before and after, and the ids moved.
    package struct Plan: Sendable {
        package var sourceBefore: Profile
        var targetBefore: Profile?
        package var source: Profile
        package var target: Profile
        /// In FROM's order; empty when there is nothing to move (nothing is written then).
        package var moved: [String]
        package var createsTarget: Bool { targetBefore == nil }
    }

    /// Reads both profiles and plans the move; writes nothing. Unknown FROM is exit 3, an
    /// unknown transaction 3, FROM = TO (or TO one of FROM's aliases) 2, a TO that cannot become a new profile 2.
    package func plan(in store: EntitlementStore) throws(EntitlementError) -> Plan {
        guard !from.utf8.elementsEqual(to.utf8) else { throw .transfer(.sameCustomer(from)) }
        guard let source = try store.loadProfile(userID: from) else { throw .unknownUser(from, suggestion: store.nearUserID(to: from)) }
        let target = try store.loadProfile(userID: to)
        if target == nil, source.customerAliases.contains(where: { $0.utf8.elementsEqual(to.utf8) }) {
            throw .transfer(.toOwnAlias(from: from, alias: to))
        }
        if target == nil {
            do throws(UserID.Problem) { _ = try UserID.validateNew(to) } catch { throw .invalidUserID(error, command: "transfer") }
        }
        let result: TransferPlanner.Result
        do throws(TransferError) {
            result = try TransferPlanner.transfer(from: [source], to: target, userID: to, transactionIDs: transactionIDs, note: note,
                                                  newProfileID: ProfileIdentity.derived(for: to))
        } catch {
            throw .transfer(error)
        }
        return Plan(sourceBefore: source, targetBefore: target, source: result.sources[0], target: result.target, moved: result.moved)
    }

    /// Under the store lock: plans again from what is on disk now, lets `check` refuse a plan
    /// that differs from the one a person confirmed, then writes both profiles in one journal
    /// (nothing when nothing moves). Returns the plan written and any index warnings.
    package func apply(in store: EntitlementStore, check: (Plan) throws(EntitlementError) -> Void = { _ in }) throws(EntitlementError) -> (Plan, [String]) {
        let change = ChangeDescription(summary: summary, actor: note.by)
        return try store.mutate(change, dryRun: false) { () throws(EntitlementError) -> MutationPlan<Plan> in
            let plan = try plan(in: store)
            try check(plan)
            guard !plan.moved.isEmpty else { return MutationPlan(outcome: plan) }
            // The App Store index follows the purchases, so a notification without appAccountToken finds TO.
            let moved = Set(plan.moved)
            let originals = Set(plan.target.transactions.filter { $0.store == .appStore && moved.contains($0.transactionID) }.map(\.originalTransactionID))
            let entries = originals.sorted().map {
                EntitlementStore.FileChange(path: EntitlementStore.relativeAppStoreCustomerIndexPath($0), bytes: Array(plan.target.customerUserID.utf8))
            }
            return MutationPlan(outcome: plan, profiles: [plan.source, plan.target], alongside: entries)
        }
    }

    /// A team store's commit message.
    var summary: String {
        let which = transactionIDs.isEmpty ? "store purchases" : transactionIDs.joined(separator: ", ")
        return "transfer \(from) -> \(to): \(which) (\(note.reason))"
    }
}
