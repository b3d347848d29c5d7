import FoundationEssentials
import Synchronization
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore
import EntitlementImport
import EntitlementTeam

/// `check --stdin`: streams user ids in, JSON Lines out, memory flat in the number of users.
///
/// Each chunk of input that arrives is split into lines, the lines are checked on
/// every core (each profile is an independent file read), and the answers are written
/// in input order before the next chunk is read. So output keeps pace with input, and
/// memory holds one chunk at a time.
struct BatchCheck {
    let command: CheckCommand
    let store: EntitlementStore
    let date: Date

    /// Below this many lines in a chunk, one thread answers faster than two.
    static let parallelThreshold = 64

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let configuration = try store.loadConfiguration()
        // Said once, before any answer, exactly as the single check says it.
        if let unknown = command.unknownEntitlement(in: configuration, store: store) {
            if command.strict { throw .unknownEntitlement(unknown) }
            if !command.quiet { context.note(unknown.note) }
        }
        let format = command.output.format
        // JSON answers of readable profiles take the fast path; it leaves anything unusual to the full one.
        let fast = [.json, .jsonl].contains(format)
            ? FastCheck(store: store, configuration: configuration, entitlement: command.entitlement, environment: command.environment, date: date) : nil
        defer { fast?.close() }
        let checker = LineChecker(command: command, store: store, engine: StatusEngine(configuration: configuration, environment: command.environment),
                                  evaluatedAt: .string(ISODate.format(date)), date: date, terminal: context.stdout.isTerminal, fast: fast)
        let workers = Parallel.workers
        let scratches = fast.map { fast in (0..<workers).map { _ in fast.makeScratch() } }
        var result = ExitCode.success
        var answered = 0
        var buffer = LineBuffer()
        // A table must see every row before it can align them; the other formats stream.
        var table = TextTable(columns: CheckRecords.columns)
        table.showsHeaders = command.output.headers
        if [.csv, .tsv].contains(format), command.output.headers {
            context.stdout.write(DelimitedText.line(CheckRecords.fieldNames, format: format, terminal: context.stdout.isTerminal))
        }
        // Input line numbers, 1-based; blank lines count (as in `grant --stdin`).
        var lineNumber = 0
        var wroteItem = false
        if format == .json { context.stdout.write("[") }
        // One answer per part, kept from chunk to chunk: its buffer of lines is written into
        // memory already touched, not grown afresh (a copy at every doubling) for each chunk.
        let answers = ChunkAnswers(count: workers)

        func answer(_ slices: [ArraySlice<UInt8>]) {
            guard !slices.isEmpty else { return }
            let lines = slices.map { slice in
                lineNumber += 1
                return (number: lineNumber, bytes: slice)
            }
            let parts = lines.count < Self.parallelThreshold || workers == 1 ? 1 : workers
            let size = (lines.count + parts - 1) / parts
            WorkerThread.perform(parts) { part in
                var result = answers.take(part)
                result.reset()
                let scratch = scratches?[part]
                for line in lines[min(part * size, lines.count)..<min((part + 1) * size, lines.count)] {
                    guard let answer = checker.check(line.bytes, number: line.number, into: &result.bytes, rows: &result.rows, scratch: scratch)
                    else { continue }
                    result.code = ExitCode.worst(result.code, answer)
                    result.count += 1
                }
                answers.set(part, result)
            }
            for part in 0..<parts {
                let answer = answers.take(part)
                defer { answers.set(part, answer) }  // its buffer, for the next chunk
                result = ExitCode.worst(result, answer.code)
                answered += answer.count
                guard !command.quiet else { continue }
                switch format {
                case .table: for row in answer.rows { table.append(row) }
                case .json:
                    // Compact objects, one per line: separate them with commas.
                    for line in answer.bytes.split(separator: 0x0A) {
                        context.stdout.write(wroteItem ? ",\n" : "\n")
                        context.stdout.write(bytes: Array(line))
                        wroteItem = true
                    }
                default: context.stdout.write(bytes: answer.bytes)
                }
            }
        }

        // A closed standard output ends the run: nobody reads the answers any more.
        while !context.stdout.isClosed, let chunk = context.stdin.readChunk() {
            answer(buffer.feed(chunk))
            context.stdout.flush()  // streaming: answer what has arrived before reading on
        }
        if let last = buffer.finish() { answer([last]) }
        if format == .json { context.stdout.write(wroteItem ? "\n]\n" : "]\n") }
        if format == .table, !table.rows.isEmpty {
            context.stdout.write(table.render(width: context.outputWidth))
        }
        // Like grep: no input is no match. Empty input must never read as "everyone is entitled".
        guard answered > 0 else {
            if !command.quiet { context.note("no user ids on standard input; nothing was checked.") }
            return .notEntitled
        }
        return result
    }
}

/// Answers one line of `check --stdin`; safe to call from several threads at once.
struct LineChecker: Sendable {
    let command: CheckCommand
    let store: EntitlementStore
    let engine: StatusEngine
    let evaluatedAt: JSONValue
    let date: Date
    /// Standard output is a terminal: csv fields are escaped for it (tsv always is).
    let terminal: Bool
    /// The fast path for readable profiles (JSON answers only); nil takes the full path for every line.
    let fast: FastCheck?

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
            if command.output.format == .jsonl || command.output.format == .json, let answer = streamedAnswer(userID, line: number, into: &out, scratch: scratch) {
                return answer
            }
            var customer = userID
            do {
                // An id no profile has may be a customer's alias: the record then names the customer (`line` ties it to the input).
                if let profile = try store.loadProfile(userIDOrAlias: userID) {
                    object = engine.evaluate(command.entitlement, for: profile, at: date).accessLevel.json
                    object["profile_id"] = .string(profile.profileID)
                    customer = profile.customerUserID
                } else if command.strict {
                    object = errorObject(.unknownUser(userID))
                    code = .notFound
                } else {
                    object = AccessLevel(id: command.entitlement, state: .never).json
                    object["profile_id"] = .null
                }
            } catch {
                object = errorObject(error)
                code = error.exitCode
            }
            if code == .success, object["is_active"] != .bool(true) { code = .notEntitled }
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

    /// The JSON line of a user whose profile reads (or who has none), written straight into
    /// `out` with the keys in order: the same line as the tree gives, without the tree.
    /// Nil when the answer is an error, which the tree path writes.
    private func streamedAnswer(_ userID: String, line: Int, into out: inout [UInt8], scratch: FastCheck.Scratch?) -> ExitCode? {
        let level: AccessLevel, profileID: String?
        var customer = userID
        do {
            if let fast, let scratch, let answer = fast.answer(userID, scratch: scratch) {
                (level, profileID) = answer
            } else if let profile = try store.loadProfile(userIDOrAlias: userID) {
                level = engine.evaluate(command.entitlement, for: profile, at: date).accessLevel
                profileID = profile.profileID
                customer = profile.customerUserID
            } else if command.strict {
                return nil
            } else {
                level = AccessLevel(id: command.entitlement, state: .never)
                profileID = nil
            }
        } catch {
            return nil
        }
        if !command.quiet {
            let sink = scratch?.line ?? ByteSink(capacity: 1024)
            sink.removeAll()
            var stream = JSONStream(style: .compact, into: sink)
            stream.beginObject()
            level.writeMembers(into: &stream, customerUserID: customer, evaluatedAt: date, line: line, profileID: .some(profileID))
            stream.endObject()
            stream.raw(0x0A)
            sink.withBytes { out.append(contentsOf: $0) }
        }
        return level.isActive ? .success : .notEntitled
    }

    /// The entitlement asked about and the error, in the one error shape (docs/json-output.md, "Errors").
    private func errorObject(_ error: EntitlementError) -> JSONObject {
        JSONObject([("id", .string(command.entitlement)), ("error", .object(error.json))])
    }
}

/// What one thread answered for its part of a chunk.
private struct Answer {
    var bytes: [UInt8] = []
    /// table: the rows, in the table's column order.
    var rows: [[String]] = []
    var code = ExitCode.success
    /// Ids answered (blank lines are not).
    var count = 0

    /// Empty again for the next chunk, keeping the memory of its lines.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        rows.removeAll()
        code = .success
        count = 0
    }
}

/// Per-thread results of one chunk, collected in order.
private final class ChunkAnswers: Sendable {
    private let parts: Mutex<[Answer]>

    init(count: Int) { parts = Mutex(Array(repeating: Answer(), count: count)) }

    func set(_ index: Int, _ answer: Answer) {
        parts.withLock { $0[index] = answer }
    }

    /// The part's answer, moved out (so that its buffer is not shared and can be reused).
    func take(_ index: Int) -> Answer {
        parts.withLock { parts in
            let answer = parts[index]
            parts[index] = Answer()
            return answer
        }
    }
}
