import EntitlementIngest
import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// What `import` prints on stdout: one block per document and the totals (docs/import.md, section 12).
enum ImportReport {
    static func write(_ outcomes: [ImportOutcome], session: ImportSession, context: Context, json asJSON: Bool) {
        if asJSON {
            context.stdout.write(JSONWriter().string(.object(json(outcomes, session: session))))
            return
        }
        var out = session.request.dryRun ? "Dry run: nothing was written.\n" : ""
        for outcome in outcomes { out += block(outcome) }
        out += totals(outcomes)
        if session.request.dryRun, let configuration = session.resultingConfiguration, !session.resultingProfiles.isEmpty {
            let engine = StatusEngine(configuration: configuration)
            for (profile, date) in session.resultingProfiles {
                out += "\nThe profile would be, at \(ISODate.format(date)):\n"
                out += ProfileText.render(profile, engine: engine, at: date, explain: false, style: Style(enabled: context.useColor))
            }
        }
        context.stdout.write(out)
    }

    /// `FILE: RevenueCat subscriber → USER (new profile)` and what changed.
    static func block(_ outcome: ImportOutcome) -> String {
        let name = Terminal.escape(outcome.name)
        if let error = outcome.error {
            var message = error.description
            if message.hasPrefix(name + ": ") { message.removeFirst(name.count + 2) }
            return "\(name): not imported (exit \(error.exitCode.rawValue)): \(message)\n"
        }
        guard let document = outcome.document else { return "\(name): not imported\n" }
        var out = "\(name): \(document.format.displayName) \(document.shape.words)"
        if let detail = document.detail { out += " " + Terminal.escape(detail) }
        if let user = outcome.user, let merge = outcome.merge {
            out += " → \(Terminal.escape(user))\(merge.createdProfile ? " (new profile)" : "")\n"
            out += "  transactions: \(counts(merge.transactionsAdded.count, merge.transactionsUpdated.count, merge.transactionsUnchanged.count))\n"
            out += "  renewal info: \(counts(merge.renewalsAdded.count, merge.renewalsUpdated.count, merge.renewalsUnchanged.count))\n"
            if !merge.attributesSet.isEmpty || !merge.attributesUnchanged.isEmpty {
                out += "  custom attributes: \(merge.attributesSet.count) set, \(merge.attributesUnchanged.count) unchanged\n"
            }
        } else {
            out += " → nothing to import\n"
        }
        func additions(_ list: [ConfigAddition]) -> String {
            list.map { "\(Terminal.escape($0.entitlement)) += \(Terminal.escape($0.productID))\($0.createdEntitlement ? " (new entitlement)" : "")" }.joined(separator: ", ")
        }
        if !outcome.configAdded.isEmpty { out += "  configuration: \(additions(outcome.configAdded))\n" }
        if !outcome.configNotAdded.isEmpty { out += "  configuration not changed (needs --update-config): \(additions(outcome.configNotAdded))\n" }
        for item in document.skipped { out += "  skipped: \(Terminal.escape(item))\n" }
        if outcome.atIgnored, let source = outcome.timeSource {
            out += "  --at ignored: the document has its own time (\(source.rawValue))\n"
        }
        if !outcome.verdicts.isEmpty, let time = outcome.time, let source = outcome.timeSource {
            out += "  vendor verdicts at \(ISODate.format(time)) (\(source.rawValue)):\n"
            out += verdictRows(outcome.verdicts)
        }
        return out
    }

    /// `agree  premium  vendor active (expires_date …)  ours active`, aligned.
    static func verdictRows(_ rows: [VerdictRow]) -> String {
        let cells = rows.map { row -> [String] in
            let result: String
            switch row.result {
            case .agree: result = "agree"
            case .disagree: result = "DISAGREE"
            case .notCompared: result = "not compared"
            }
            var label = row.entitlement
            if row.isSubscription, let subject = row.subject { label = row.entitlement == "-" ? subject : "\(row.entitlement) \(subject)" }
            let vendor = row.isSubscription ? "vendor \(row.evidence)" : "vendor \(row.vendorState) (\(row.evidence))"
            let ours = row.ours.map { "ours \($0.rawValue)" } ?? (row.note ?? "not compared")
            return [result, label, vendor, ours].map(Terminal.escape)
        }
        let widths = (0..<3).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { cell -> String in
            let padded: [String] = (0..<3).map { cell[$0].padded(to: widths[$0] + 3) }
            return "    " + padded.joined() + cell[3] + "\n"
        }.joined()
    }

    static func totals(_ outcomes: [ImportOutcome]) -> String {
        let merges = outcomes.compactMap(\.merge)
        func sum(_ count: (MergeReport) -> Int) -> Int { merges.map(count).reduce(0, +) }
        let added = sum(\.transactionsAdded.count)
        let configured = outcomes.map(\.configAdded.count).reduce(0, +)
        let disagreements = outcomes.map(\.disagreements).reduce(0, +)
        var out = "Total: \(added) transaction\(added == 1 ? "" : "s") added, \(sum(\.transactionsUpdated.count)) updated, \(sum(\.transactionsUnchanged.count)) unchanged; "
        out += "\(sum(\.renewalsAdded.count)) renewal info added, \(sum(\.renewalsUpdated.count)) updated, \(sum(\.renewalsUnchanged.count)) unchanged; "
        out += "\(configured) configuration product\(configured == 1 ? "" : "s") added; "
        let notAdded = outcomes.map(\.configNotAdded.count).reduce(0, +)
        if notAdded > 0 { out += "\(notAdded) not added (needs --update-config); " }
        out += "\(disagreements) disagreement\(disagreements == 1 ? "" : "s"), \(outcomes.map(\.notCompared).reduce(0, +)) not compared.\n"
        let failed = outcomes.filter(\.failed)
        if !failed.isEmpty {
            var names = failed.prefix(10).map { Terminal.escape($0.name) }.joined(separator: ", ")
            if failed.count > 10 { names += ", and \(failed.count - 10) more" }
            out += "Failed: \(failed.count) of \(outcomes.count) document\(outcomes.count == 1 ? "" : "s") (\(names)); nothing from \(failed.count == 1 ? "it" : "them") was written.\n"
        }
        return out
    }

    static func counts(_ added: Int, _ updated: Int, _ unchanged: Int) -> String {
        "\(added) added, \(updated) updated, \(unchanged) unchanged"
    }
}
