import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// What `check` answers for one customer, decided below the command line: the command only
/// presents it (a JSON line, a CSV record, a table row).
package enum CheckAnswer {
    /// The access level, the profile's `profile_id` (nil when the customer has no profile,
    /// which answers `never`) and the customer it is about: the id asked, or the customer
    /// whose alias it is.
    case level(AccessLevel, profileID: String?, customer: String)
    /// The answer is an error: a profile that cannot be read, or (with `--strict`) no profile.
    case failed(EntitlementError)
}

/// Answers `check` for one customer after another (`check --stdin`); safe to call from
/// several threads at once, each with its own `FastCheck.Scratch`.
///
/// The byte-level fast path (`FastCheck`) answers where it can stand in for the full one;
/// everything else, and every error, is the full path's: the profile read and evaluated by
/// `StatusEngine`. Tests compare the two (FastCheckStoreTests; the twins alone: FastCheckTests).
package struct CheckAnswerer: Sendable {
    package let store: EntitlementStore
    package let engine: StatusEngine
    package let entitlement: String
    package let date: Date
    /// `--strict`: a customer without a profile is an error, not `never`.
    package let strict: Bool
    /// Nil: every customer takes the full path.
    package let fast: FastCheck?

    package init(store: EntitlementStore, engine: StatusEngine, entitlement: String, date: Date, strict: Bool, fast: FastCheck?) {
        self.store = store
        self.engine = engine
        self.entitlement = entitlement
        self.date = date
        self.strict = strict
        self.fast = fast
    }

    /// The answer for `userID` (a valid id); `scratch` is the calling thread's own, for the fast path.
    package func answer(_ userID: String, scratch: FastCheck.Scratch?) -> CheckAnswer {
        if let fast, let scratch, let answer = fast.answer(userID, scratch: scratch) {
            return .level(answer.level, profileID: answer.profileID, customer: userID)
        }
        do {
            // An id no profile has may be a customer's alias: the answer then names the customer.
            if let profile = try store.loadProfile(userIDOrAlias: userID) {
                return .level(engine.evaluate(entitlement, for: profile, at: date).accessLevel, profileID: profile.profileID,
                              customer: profile.customerUserID)
            }
            if strict { return .failed(.unknownUser(userID)) }
            return .level(AccessLevel(id: entitlement, state: .never), profileID: nil, customer: userID)
        } catch {
            return .failed(error)
        }
    }
}
