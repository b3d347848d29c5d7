import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// `check USER [ENTITLEMENT]` (one customer, by id, alias or profile id): the same choice as
/// `check --stdin`, the byte-level fast path where it can answer, else the full one, with what
/// only the single check prints (the engine's reasons, `last_event_at`).
extension CheckAnswerer {
    /// Whom a single `check` asks about.
    package enum Lookup: Sendable {
        case user(String)
        case profileID(String)
    }

    /// What a single `check` prints about one customer.
    package struct Detail: Sendable {
        package var level: AccessLevel
        /// The customer user id to print: the profile's, or the id looked up.
        package var userID: String?
        package var profileID: String?
        package var hasProfile: Bool
        /// The engine's reasons; only the full path keeps them (`--explain`).
        package var evaluation: Evaluation?
        /// `last_event_at`: the newest vendor event applied to the profile.
        package var lastEventAt: Date?
    }

    /// The single check's answer. `explain`: the engine's reasons are wanted, so only the full
    /// path answers; `lastEventAt`: the fast path reads `last_event_at` too (JSON output).
    /// Strictness is the caller's: a customer without a profile answers `never` here.
    package static func single(_ lookup: Lookup, store: EntitlementStore, configuration: ProductConfiguration, entitlement: String,
                               environment: EnvironmentFilter, date: Date, explain: Bool, lastEventAt: Bool) throws(EntitlementError) -> Detail {
        var fast: FastCheck?
        if case .user = lookup, !explain {
            fast = FastCheck(store: store, configuration: configuration, entitlement: entitlement, environment: environment, date: date)
        }
        defer { fast?.close() }
        let answerer = CheckAnswerer(store: store, engine: StatusEngine(configuration: configuration, environment: environment),
                                     entitlement: entitlement, date: date, strict: false, fast: fast)
        if let detail = answerer.fastDetail(lookup, lastEventAt: lastEventAt) { return detail }
        return try answerer.fullDetail(lookup)
    }

    /// The answer straight from the profile's bytes (`FastCheck`), or nil where only the full
    /// path can answer: no fast path, a lookup by profile id, or a missing, unusual or damaged file.
    func fastDetail(_ lookup: Lookup, lastEventAt: Bool) -> Detail? {
        guard case .user(let userID) = lookup, let fast else { return nil }
        let scratch = fast.makeScratch()
        guard let (level, profileID) = fast.answer(userID, scratch: scratch) else { return nil }
        // The fast path answers only for a profile whose customer user id is the one asked about.
        return Detail(level: level, userID: userID, profileID: profileID, hasProfile: true, evaluation: nil,
                      lastEventAt: lastEventAt ? fast.lastEventAt(scratch) : nil)
    }

    /// The answer from the decoded profile (found by id, alias or profile id) and `StatusEngine`.
    func fullDetail(_ lookup: Lookup) throws(EntitlementError) -> Detail {
        let profile: Profile?
        let userID: String?
        switch lookup {
        case .user(let id):
            profile = try store.loadProfile(userIDOrAlias: id)
            userID = profile?.customerUserID ?? id
        case .profileID(let id):
            profile = try store.loadProfile(profileID: id)
            userID = profile?.customerUserID
        }
        let evaluation: Evaluation
        if let profile {
            evaluation = engine.evaluate(entitlement, for: profile, at: date)
        } else {
            evaluation = Evaluation(accessLevel: AccessLevel(id: entitlement, state: .never), considerations: [], decision: "no profile for this user")
        }
        return Detail(level: evaluation.accessLevel, userID: userID, profileID: profile?.profileID, hasProfile: profile != nil,
                      evaluation: evaluation, lastEventAt: profile?.lastEventAt)
    }
}
