import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules

/// Plans one chunk of `grant --stdin` on every core: the same results, ids and file
/// changes as granting each line in turn.
///
/// Ids within a chunk are distinct (repeats are marked duplicates by the input parser),
/// so no line's profile depends on another's. Three steps keep the outcome independent
/// of the threads: the profiles are read on all cores; new ids are drawn on one thread,
/// in input order, for exactly the lines a sequential run would draw them for (those
/// whose profile could be read); then planning, encoding (with the read-back check) and
/// evaluation run on all cores. Parts are joined in input order.
struct BulkGrantPlan: Sendable {
    /// One line's result and the files it changes.
    struct Planned: Sendable {
        var result: BulkGrant.Result
        var changes: [EntitlementStore.FileChange] = []
    }

    /// What reading a line's profile gave.
    private enum Loaded: Sendable {
        case skipped
        case failed(EntitlementError)
        case loaded(userID: String, profile: Profile?)
    }

    let store: EntitlementStore
    let engine: StatusEngine
    let template: GrantRequest
    let now: Date
    let dryRun: Bool

    /// Lines below this count are planned on one thread.
    static let parallelThreshold = 16

    /// Each line's result and changes, in input order; `newID` is called in input order.
    func plan(_ lines: [BulkGrantLine], newID: () -> String) -> [Planned] {
        let store = self.store
        let loaded = Parallel.map(lines, threshold: Self.parallelThreshold) { line -> Loaded in
            guard line.problem == nil, line.duplicateOf == nil, let userID = line.userID else { return .skipped }
            do throws(EntitlementError) {
                return .loaded(userID: userID, profile: try store.loadProfile(userID: userID))
            } catch {
                return .failed(error)
            }
        }
        var work: [Work] = []
        work.reserveCapacity(lines.count)
        for (line, loaded) in zip(lines, loaded) {
            var item = Work(line: line, loaded: loaded)
            if case .loaded = loaded {
                item.transactionID = "manual-" + newID()
                item.profileID = ProfileIdentity.derived(for: line.userID ?? "")
            }
            work.append(item)
        }
        return Parallel.map(work, threshold: Self.parallelThreshold) { [self] item in planOne(item) }
    }

    /// A line with its profile and, when it is to be planned, its new ids.
    private struct Work: Sendable {
        var line: BulkGrantLine
        var loaded: Loaded
        var transactionID = ""
        var profileID = ""
    }

    private func planOne(_ work: Work) -> Planned {
        var result = BulkGrant.Result(line: work.line)
        switch work.loaded {
        case .skipped:
            return Planned(result: result)
        case .failed(let error):
            result.error = error
            return Planned(result: result)
        case .loaded(let userID, let existing):
            var request = template
            request.userID = userID
            do throws(EntitlementError) {
                let outcome: GrantOutcome
                do throws(GrantError) {
                    outcome = try GrantPlanner.apply(request, to: existing, now: now, newTransactionID: work.transactionID,
                                                     newProfileID: work.profileID)
                } catch {
                    throw .grant(error)
                }
                var changes: [EntitlementStore.FileChange] = []
                if outcome.changed, !dryRun { changes = try store.changes(saving: outcome.profile, previous: existing) }
                result.level = engine.evaluate(template.entitlement, for: outcome.profile, at: now).accessLevel
                // The report needs only the profile's ids: a batch waiting for its commit keeps
                // no decoded profiles (their raw JSON trees are most of a batch's memory).
                var kept = outcome
                kept.profile = Profile(profileID: outcome.profile.profileID, customerUserID: outcome.profile.customerUserID,
                                       createdAt: outcome.profile.createdAt)
                result.outcome = kept
                return Planned(result: result, changes: changes)
            } catch {
                result.error = error
                return Planned(result: result)
            }
        }
    }
}
