import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `check USER [ENTITLEMENT]`: one user, one answer.
extension CheckCommand {
    /// What `check` prints about one user: the access level, and whose profile it came from.
    struct Answer {
        var level: AccessLevel
        /// The customer user id to print: the profile's, or the id looked up.
        var userID: String?
        var profileID: String?
        var hasProfile: Bool
        /// The engine's reasons; only the full path keeps them (`--explain`).
        var evaluation: Evaluation?
        /// `last_event_at` (JSON only): the newest vendor event applied to the profile.
        var lastEventAt: Date?
    }

    func checkOne(_ lookup: ProfileLookup, store: EntitlementStore, date: Date, context: Context) throws(EntitlementError) -> ExitCode {
        // The configuration is small, and reading it always means a broken store is
        // reported (exit 4) even for a user without a profile.
        let configuration = try store.loadConfiguration()
        let answer: Answer
        if let fast = fastAnswer(lookup, store: store, configuration: configuration, date: date) {
            answer = fast
        } else {
            answer = try fullAnswer(lookup, store: store, configuration: configuration, date: date)
        }
        if strict {
            guard answer.hasProfile else { throw lookup.notFoundError(in: store) }
            if let unknown = unknownEntitlement(in: configuration, store: store) { throw .unknownEntitlement(unknown) }
        } else if !quiet, let unknown = unknownEntitlement(in: configuration, store: store) {
            // Still exit 1, as scripts expect, but a person sees why.
            context.note(unknown.note)
        }
        if !answer.hasProfile, !quiet, !strict, context.stderr.isTerminal, case .user(let id) = lookup, let near = store.nearUserID(to: id) {
            // Only for a person, and only on a miss: a script's stream of unknown ids never pays for the listing.
            context.note("no profile for '\(Terminal.escape(id))'. Did you mean '\(Terminal.escape(near))'?")
        }
        report(answer, lookup: lookup, date: date, context: context)
        return answer.level.isActive ? .success : .notEntitled
    }

    /// The answer straight from the profile's bytes (`FastCheck`, as `check --stdin` uses),
    /// or nil where only the full path can answer: a missing, unusual or damaged file, a
    /// lookup by profile id, or `--explain`, which needs the engine's reasons.
    func fastAnswer(_ lookup: ProfileLookup, store: EntitlementStore, configuration: ProductConfiguration, date: Date) -> Answer? {
        guard case .user(let userID) = lookup, !explain,
              let check = FastCheck(store: store, configuration: configuration, entitlement: entitlement, environment: environment, date: date)
        else { return nil }
        defer { check.close() }
        let scratch = check.makeScratch()
        guard let (level, profileID) = check.answer(userID, scratch: scratch) else { return nil }
        // The fast path answers only for a profile whose customer user id is the one asked about.
        return Answer(level: level, userID: userID, profileID: profileID, hasProfile: true, evaluation: nil,
                      lastEventAt: output.format == .json ? check.lastEventAt(scratch) : nil)
    }

    /// The answer from the decoded profile and `StatusEngine`.
    func fullAnswer(_ lookup: ProfileLookup, store: EntitlementStore, configuration: ProductConfiguration, date: Date) throws(EntitlementError) -> Answer {
        let profile = try lookup.load(from: store)
        let userID: String?
        switch lookup {
        case .user(let id): userID = profile?.customerUserID ?? id
        case .profileID: userID = profile?.customerUserID
        }
        let evaluation: Evaluation
        if let profile {
            evaluation = StatusEngine(configuration: configuration, environment: environment).evaluate(entitlement, for: profile, at: date)
        } else {
            evaluation = Evaluation(accessLevel: AccessLevel(id: entitlement, state: .never), considerations: [], decision: "no profile for this user")
        }
        return Answer(level: evaluation.accessLevel, userID: userID, profileID: profile?.profileID, hasProfile: profile != nil, evaluation: evaluation,
                      lastEventAt: profile?.lastEventAt)
    }

    func report(_ answer: Answer, lookup: ProfileLookup, date: Date, context: Context) {
        let level = answer.level
        var object = level.json
        object["customer_user_id"] = .string(answer.userID)
        object["profile_id"] = .string(answer.profileID)
        object["evaluated_at"] = .string(ISODate.format(date))
        if explain, let evaluation = answer.evaluation { object["explanation"] = .object(ExplanationRenderer.json(evaluation)) }
        // Single check's JSON only: --stdin's records and the delimited formats keep their fields.
        if json { object["last_event_at"] = .string(answer.lastEventAt.map(ISODate.format)) }
        if output.format == .jsonl {
            context.stdout.write(JSONWriter(style: .compact).string(.object(object)) + "\n")
        } else if output.format == .csv || output.format == .tsv {
            let rows = (output.headers ? [CheckRecords.fieldNames] : []) + [CheckRecords.fields(object)]
            context.stdout.write(rows.map { DelimitedText.line($0, format: output.format, terminal: context.stdout.isTerminal) }.joined())
        } else if json {
            context.stdout.write(JSONWriter().string(.object(object)))
        } else if !quiet {
            let style = Style(enabled: context.useColor)
            context.stdout.write(AccessLevelText.checkLine(user: answer.userID ?? lookup.displayName, level: level, at: date, hasProfile: answer.hasProfile, style: style))
            if explain, let evaluation = answer.evaluation { context.stdout.write(ExplanationRenderer.text(evaluation, at: date, style: style)) }
        }
    }
}
