import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// The per-profile work of `find`, safe to run on several threads: each match becomes its
/// record in the output format at once, so a part holds text, not profiles.
struct FindRun: Sendable {
    /// What one thread found in its share of a batch.
    struct Part: Sendable {
        /// jsonl, json (one compact object per line), csv and tsv: the records, ready to print.
        var bytes: [UInt8] = []
        /// table: the rows and their short forms.
        var rows: [(cells: [String], short: [Int: String])] = []
        var matches = 0
        var errors: [EntitlementError] = []
    }

    let query: FindQuery
    let engine: StatusEngine
    let date: Date
    /// nil: count only (`--quiet`).
    let format: OutputFormat?
    /// Standard output is a terminal: csv fields are escaped for it.
    let terminal: Bool

    func visit(_ part: inout Part, _ profile: Profile) {
        for level in query.matches(profile, engine: engine, at: date) {
            part.matches += 1
            switch format {
            case nil: break
            case .table: part.rows.append(FindRecords.row(level, profile: profile, at: date))
            case .json, .jsonl:
                JSONWriter(style: .compact).write(.object(FindRecords.object(level, profile: profile, at: date)), indent: 0, into: &part.bytes)
                part.bytes.append(0x0A)
            case .csv, .tsv:
                let line = DelimitedText.line(FindRecords.fields(level, profile: profile, at: date), format: format!, terminal: terminal)
                part.bytes.append(contentsOf: line.utf8)
            }
        }
    }
}

/// Prints `find`'s parts in order as they come: the table through `StreamingTable`, the
/// json array with its brackets and commas, the other formats as they are.
struct FindPrinter {
    let output: OutputChoice
    let stdout: OutputSink
    private var table: StreamingTable
    private var wroteItem = false

    init(output: OutputChoice, stdout: OutputSink, width: Int?, style: Style) {
        self.output = output
        self.stdout = stdout
        table = StreamingTable(columns: FindRecords.columns, width: width, showsHeaders: output.headers) { cells, column, text in
            column == FindRecords.stateColumn ? AccessState(rawValue: cells[column]).map { style.state(text, $0) } ?? text : text
        }
        if output.format == .json { stdout.write("[") }
        if [.csv, .tsv].contains(output.format), output.headers {
            stdout.write(DelimitedText.line(FindRecords.fieldNames, format: output.format, terminal: stdout.isTerminal))
        }
    }

    /// Writes one part; `beforeWriting` clears the progress bar first.
    mutating func print(_ part: FindRun.Part, beforeWriting: () -> Void) {
        switch output.format {
        case .table:
            var text = ""
            for row in part.rows { text += table.append(row.cells, short: row.short) }
            if !text.isEmpty { beforeWriting(); stdout.write(text) }
        case .json:
            guard !part.bytes.isEmpty else { return }
            beforeWriting()
            for line in part.bytes.split(separator: 0x0A) {
                stdout.write(wroteItem ? ",\n" : "\n")
                stdout.write(bytes: Array(line))
                wroteItem = true
            }
        case .jsonl, .csv, .tsv:
            guard !part.bytes.isEmpty else { return }
            beforeWriting()
            stdout.write(bytes: part.bytes)
        }
    }

    /// The end: the rest of the table (or "No customer matches."), the json array's close.
    mutating func finish(matches: Int) {
        switch output.format {
        case .table: stdout.write(matches == 0 ? "No customer matches.\n" : table.finish())
        case .json: stdout.write(wroteItem ? "\n]\n" : "]\n")
        case .jsonl, .csv, .tsv: break
        }
    }
}
