import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `check USER [ENTITLEMENT]`: one user, one answer.
extension CheckCommand {
    func checkOne(_ lookup: ProfileLookup, store: EntitlementStore, date: Date, context: Context) throws(EntitlementError) -> ExitCode {
        // The configuration is small, and reading it always means a broken store is
        // reported (exit 4) even for a user without a profile.
        let configuration = try store.loadConfiguration()
        let answer = try CheckAnswerer.single(lookup.checkLookup, store: store, configuration: configuration, entitlement: entitlement,
                                              environment: environment, date: date, explain: explain, lastEventAt: output.format == .json)
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

    func report(_ answer: CheckAnswerer.Detail, lookup: ProfileLookup, date: Date, context: Context) {
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

extension ProfileLookup {
    /// The lookup as `CheckAnswerer` takes it.
    var checkLookup: CheckAnswerer.Lookup {
        switch self {
        case .user(let id): return .user(id)
        case .profileID(let id): return .profileID(id)
        }
    }
}
