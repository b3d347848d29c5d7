import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementTeam

/// `history` as records: one row per event.
enum HistoryText {
    /// The events as records. On a terminal too narrow for the whole table, DATE shows the day
    /// only; then the table drops, in order: SIGNATURE, AUTHOR and COMMIT (a team store's),
    /// then ENV, STARTS, STORE, TRANSACTION, EXPIRES; then it cuts REASON and BY (to 10 and 12
    /// cells, ending in `…`) before it drops REASON and, last of all, BY: the actor is the
    /// point of an audit trail. DATE, EVENT and
    /// PRODUCT stay (else vertical records). With `audit` (a team store), each row also names
    /// its commit, author and signature, and a `!` before BY flags an actor that is not the
    /// commit's author. `customer` joins each JSON record (`customer_user_id`), so records
    /// from several profiles, or piped on, still say whose they are.
    /// With `sources` (`--explain`), each row also names the vendor event behind it (SOURCE EVENT,
    /// kept longest after BY; `source_event` in JSON).
    static func records(_ events: [AuditedEvent], customer: String? = nil, audit: Bool = false, sources: [EventSources.Source]? = nil) -> RecordOutput {
        var columns: [TextTable.Column] = [
            .init("DATE"), .init("EVENT"), .init("TRANSACTION", dropRank: 4), .init("PRODUCT"), .init("STORE", dropRank: 3),
            .init("STARTS", dropRank: 2), .init("EXPIRES", dropRank: 5), .init("ENV", dropRank: 1), .init("BY", dropRank: 7, minimumWidth: 12), .init("REASON", dropRank: 6, minimumWidth: 10),
        ]
        var fieldNames = ["at", "event", "transaction_id", "product_id", "entitlement", "store", "starts_at", "expires_at", "environment", "actor", "reason"]
        if audit {
            columns += [.init("COMMIT", dropRank: -1), .init("AUTHOR", dropRank: -2), .init("SIGNATURE", dropRank: -3)]
            fieldNames += ["commit", "author", "signature", "actor_matches_author"]
        }
        if sources != nil {
            columns.append(.init("SOURCE EVENT", dropRank: 8))
            fieldNames += ["source_vendor", "source_event_type", "source_event_id", "source_received_at"]
        }
        var table = TextTable(columns: columns)
        var output = RecordOutput(table: table, fieldNames: fieldNames)
        for (index, audited) in events.enumerated() {
            let event = audited.event
            let transaction = event.transaction
            let what = name(event)
            let product = transaction.isManualGrant ? "\(transaction.entitlement ?? "?") (manual)" : (transaction.productID ?? "-")
            let flagged = audited.actorMatchesAuthor == false
            // A purchase transferred out is only an id here (HistoryEvent.holdsStandIn): the rest reads as unknown.
            let known = !event.holdsStandIn
            var row = [
                HumanDate.format(event.at), what, transaction.transactionID, known ? product : "-", known ? transaction.store.rawValue : "-",
                transaction.startsAt.map(HumanDate.format) ?? "-", known ? transaction.expiresAt.map(HumanDate.format) ?? "never" : "-",
                known ? transaction.environment.rawValue : "-", (flagged ? "! " : "") + (event.actor ?? "-"), event.reasonDescription ?? "-",
            ]
            var fields = [
                ISODate.format(event.at), what, transaction.transactionID, transaction.productID ?? "", transaction.entitlement ?? "",
                transaction.store.rawValue, transaction.startsAt.map(ISODate.format) ?? "", known ? transaction.expiresAt.map(ISODate.format) ?? "" : "",
                known ? transaction.environment.rawValue : "", event.actor ?? "", event.reason ?? "",
            ]
            if audit {
                row += [audited.recorded.map { String($0.id.prefix(10)) } ?? "-", audited.recorded?.author.description ?? "-",
                        audited.recorded?.signatureDescription ?? "-"]
                fields += [audited.recorded?.id ?? "", audited.recorded?.author.description ?? "", audited.recorded?.signatureDescription ?? "",
                           audited.actorMatchesAuthor.map { $0 ? "true" : "false" } ?? ""]
            }
            var object = audit ? audited.auditJSON : event.json
            if let source = sources?[index] {
                row.append(EventSourceText.cell(source))
                fields += EventSourceText.fields(source)
                object["source_event"] = EventSourceText.json(source)
            }
            // On a terminal too narrow for every column, DATE shows the day only.
            table.append(row, short: [0: String(row[0].prefix(10))])
            output.fields.append(fields)
            if let customer { object["customer_user_id"] = .string(customer) }
            output.objects.append(object)
        }
        output.table = table
        return output
    }

    /// `(3 columns hidden; widen the terminal or use --output json)`, dim, under a table that
    /// dropped columns to fit `width`; nil when nothing was hidden (or the rows went vertical,
    /// which shows every column).
    static func hiddenColumnsNote(_ table: TextTable, width: Int?, style: Style) -> String? {
        let layout = table.layout(width: width)
        let hidden = table.columns.count - layout.visible.count
        guard !layout.isVertical, hidden > 0 else { return nil }
        return style.dim("(\(hidden) column\(hidden == 1 ? "" : "s") hidden; widen the terminal or use --output json)") + "\n"
    }

    /// The note under an audit table when some actor is not its commit's author.
    static func mismatchNote(_ events: [AuditedEvent]) -> String? {
        events.contains { $0.actorMatchesAuthor == false } ? "! the recorded actor is not the author of the commit that recorded the change.\n" : nil
    }

    /// The EVENT column: the transaction type for purchases, else grant or revocation.
    static func name(_ event: HistoryEvent) -> String {
        switch event.kind {
        case .purchase: return event.transaction.type.rawValue
        case .grant: return "grant"
        case .revocation: return "revocation"
        case .restore: return "restore"
        case .transfer:
            guard let side = event.transfer else { return "transfer" }
            return side.direction == .in ? "transfer from \(side.other)" : "transfer to \(side.other)"
        }
    }
}
