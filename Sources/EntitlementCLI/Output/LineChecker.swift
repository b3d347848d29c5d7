import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// Presents the answer of one line of `check --stdin` (`CheckAnswerer` decides it); safe to
/// call from several threads at once.
struct LineChecker: Sendable {
    let command: CheckCommand
    let answerer: CheckAnswerer
    let evaluatedAt: JSONValue
    let date: Date
    /// Standard output is a terminal: csv fields are escaped for it (tsv always is).
    let terminal: Bool

    init(command: CheckCommand, store: EntitlementStore, engine: StatusEngine, evaluatedAt: JSONValue, date: Date, terminal: Bool, fast: FastCheck?) {
        self.command = command
        answerer = CheckAnswerer(store: store, engine: engine, entitlement: command.entitlement, date: date, strict: command.strict, fast: fast)
        self.evaluatedAt = evaluatedAt
        self.date = date
        self.terminal = terminal
    }

    /// Appends the answer for input line `number` to `out` (jsonl, json, csv, tsv) or `rows`
    /// (table) and returns what it means for the exit code; nil for a blank or comment line,
    /// which is skipped (`StdinLine`, the rule `grant --stdin` reads by too).
    /// `scratch` is the calling thread's own, for the fast path.
    func check(_ line: ArraySlice<UInt8>, number: Int, into out: inout [UInt8], rows: inout [[String]], scratch: FastCheck.Scratch? = nil) -> ExitCode? {
        var object: JSONObject
        var code = ExitCode.success
        switch StdinLine.read(line) {
        case .skipped: return nil
        case .id(let userID):
            var customer = userID
            switch answerer.answer(userID, scratch: scratch) {
            case .level(let level, let profileID, let answered):
                // `line` ties a record that names the customer of an alias to its input.
                customer = answered
                if command.output.format.isJSON {
                    if !command.quiet { writeLine(level, userID: customer, profileID: profileID, line: number, scratch: scratch, into: &out) }
                    return level.isActive ? .success : .notEntitled
                }
                object = level.json
                object["profile_id"] = profileID.map(JSONValue.string) ?? .null
                if !level.isActive { code = .notEntitled }
            case .failed(let error):
                object = errorObject(error)
                code = error.exitCode
            }
            object["customer_user_id"] = .string(customer)
        case .refused(let problem):
            object = errorObject(.invalidUserID(problem))
            var shown = line
            if shown.last == 0x0D { shown = shown.dropLast() }
            object["customer_user_id"] = .string(String(decoding: shown.prefix(64), as: UTF8.self))
            code = .usage
        }
        object["evaluated_at"] = evaluatedAt
        object["line"] = .int(number)
        if !command.quiet {
            switch command.output.format {
            case .json, .jsonl:
                JSONWriter(style: .compact).write(.object(object), indent: 0, into: &out)
                out.append(0x0A)
            case .csv, .tsv:
                out.append(contentsOf: DelimitedText.line(CheckRecords.fields(object), format: command.output.format, terminal: terminal).utf8)
            case .table: rows.append(CheckRecords.tableRow(CheckRecords.fields(object)))
            }
        }
        return code
    }

    /// The JSON line of an access level, written straight into `out` with the keys in order:
    /// the same line as the tree gives, without the tree.
    private func writeLine(_ level: AccessLevel, userID: String, profileID: String?, line: Int, scratch: FastCheck.Scratch?, into out: inout [UInt8]) {
        let sink = scratch?.line ?? ByteSink(capacity: 1024)
        sink.removeAll()
        var stream = JSONStream(style: .compact, into: sink)
        stream.beginObject()
        level.writeMembers(into: &stream, customerUserID: userID, evaluatedAt: date, line: line, profileID: .some(profileID))
        stream.endObject()
        stream.raw(0x0A)
        sink.withBytes { out.append(contentsOf: $0) }
    }

    /// The entitlement asked about and the error, in the one error shape (docs/json-output.md, "Errors").
    private func errorObject(_ error: EntitlementError) -> JSONObject {
        JSONObject([("id", .string(command.entitlement)), ("error", .object(error.json))])
    }
}
