import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `check --stdin`: user ids in, one answer per line out, streamed, memory flat in the number
/// of users. `LineBatch` (EntitlementStore) runs the chunks on every core and
/// `CheckAnswerer` decides each answer; this file only presents them.
extension CheckCommand {
    func checkStdin(store: EntitlementStore, date: Date, context: Context) throws(EntitlementError) -> ExitCode {
        let configuration = try store.loadConfiguration()
        // Said once, before any answer, exactly as the single check says it.
        if let unknown = unknownEntitlement(in: configuration, store: store) {
            if strict { throw .unknownEntitlement(unknown) }
            if !quiet { context.note(unknown.note) }
        }
        let format = output.format
        // JSON answers of readable profiles take the fast path; it leaves anything unusual to the full one.
        let fast = format.isJSON ? FastCheck(store: store, configuration: configuration, entitlement: entitlement, environment: environment, date: date) : nil
        defer { fast?.close() }
        let checker = LineChecker(command: self, store: store, engine: StatusEngine(configuration: configuration, environment: environment),
                                  evaluatedAt: .string(ISODate.format(date)), date: date, terminal: context.stdout.isTerminal, fast: fast)
        let scratches = fast.map { fast in (0..<Parallel.workers).map { _ in fast.makeScratch() } }
        var result = ExitCode.success
        var answered = 0
        // A table must see every row before it can align them; the other formats stream.
        var table = TextTable(columns: CheckRecords.columns)
        table.showsHeaders = output.headers
        if [.csv, .tsv].contains(format), output.headers {
            context.stdout.write(DelimitedText.line(CheckRecords.fieldNames, format: format, terminal: context.stdout.isTerminal))
        }
        var wroteItem = false
        if format == .json { context.stdout.write("[") }
        var batch = LineBatch<CheckedLines> { CheckedLines() }
        // A closed standard output ends the run: nobody reads the answers any more.
        batch.run(nextChunk: { context.stdin.readChunk() }, stop: { context.stdout.isClosed }, afterChunk: { context.stdout.flush() },
                  answer: { thread, part, lines in
                      part.reset()
                      let scratch = scratches?[thread]
                      for line in lines {
                          guard let code = checker.check(line.bytes, number: line.number, into: &part.bytes, rows: &part.rows, scratch: scratch) else { continue }
                          part.code = ExitCode.worst(part.code, code)
                          part.count += 1
                      }
                  },
                  collect: { part in
                      result = ExitCode.worst(result, part.code)
                      answered += part.count
                      guard !quiet else { return }
                      switch format {
                      case .table: for row in part.rows { table.append(row) }
                      case .json:
                          // Compact objects, one per line: separate them with commas.
                          for line in part.bytes.split(separator: 0x0A) {
                              context.stdout.write(wroteItem ? ",\n" : "\n")
                              context.stdout.write(bytes: Array(line))
                              wroteItem = true
                          }
                      default: context.stdout.write(bytes: part.bytes)
                      }
                  })
        if format == .json { context.stdout.write(wroteItem ? "\n]\n" : "]\n") }
        if format == .table, !table.rows.isEmpty {
            context.stdout.write(table.render(width: context.outputWidth))
        }
        // Like grep: no input is no match. Empty input must never read as "everyone is entitled".
        guard answered > 0 else {
            if !quiet { context.note("no user ids on standard input; nothing was checked.") }
            return .notEntitled
        }
        return result
    }
}

/// What one thread answered for its part of a chunk.
struct CheckedLines: Sendable {
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
