import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Records a command prints, ready for every `--output` format: one declaration per
/// command, so a new command that prints records needs only to fill one in.
struct RecordOutput {
    /// The table for people (human dates, short forms, drop order).
    var table: TextTable
    /// csv and tsv: the header row (snake_case, as in JSON) and machine values (ISO dates).
    var fieldNames: [String]
    var fields: [[String]] = []
    /// jsonl: one object per record; json: the command's own document when it has one,
    /// else the array of these objects.
    var objects: [JSONObject] = []
    var document: JSONValue?

    init(table: TextTable, fieldNames: [String]) {
        self.table = table
        self.fieldNames = fieldNames
    }

    /// The records in `choice`'s format; the table fitted to `width` (nil: never shortened).
    func render(_ choice: OutputChoice, width: Int?) -> String {
        switch choice.format {
        case .table:
            var table = self.table
            table.showsHeaders = choice.headers
            return table.render(width: width)
        case .json: return JSONWriter().string(document ?? .array(objects.map(JSONValue.object)))
        case .jsonl: return objects.map { JSONWriter(style: .compact).string(.object($0)) + "\n" }.joined()
        case .csv, .tsv:
            let rows = (choice.headers ? [fieldNames] : []) + fields
            return rows.map { DelimitedText.line($0, format: choice.format, terminal: width != nil) }.joined()
        }
    }
}

/// `--output FORMAT` (or `--json`) and `--no-headers`, as a command read them.
struct OutputChoice: Equatable, Sendable {
    var format: OutputFormat
    /// False with `--no-headers`.
    var headers: Bool

    init(format: OutputFormat = .table, headers: Bool = true) {
        self.format = format
        self.headers = headers
    }

    /// `--output`, else `--json` (an alias of `--output json`), else the table.
    static func parse(_ parsed: ParsedArguments) throws(EntitlementError) -> OutputChoice {
        let given = try parsed.given(CommonOptions.output)
        if let given, parsed.flag(CommonOptions.json), given != .json {
            throw .usage("--json means --output json; it cannot be combined with --output \(given.rawValue).", command: parsed.command)
        }
        let format = given ?? (parsed.flag(CommonOptions.json) ? .json : .table)
        return OutputChoice(format: format, headers: !parsed.flag(CommonOptions.noHeaders))
    }
}

/// One line of csv (RFC 4180) or tsv.
enum DelimitedText {
    /// `terminal`: standard output is a terminal, where csv fields are escaped too.
    static func line(_ fields: [String], format: OutputFormat, terminal: Bool = false) -> String {
        if format == .csv { return fields.map { csvField(terminal ? Terminal.escape($0) : $0) }.joined(separator: ",") + "\r\n" }
        return fields.map(tsvField).joined(separator: "\t") + "\n"
    }

    /// Quoted when it holds a comma, a quote, CR or LF; quotes doubled inside.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// Tab, newline, carriage return and backslash as \t, \n, \r and \\, so one record is one
    /// line; every other control character and bidi mark as `\u{…}` (Terminal.escape), so no
    /// field can drive a terminal, in a pipe or not.
    static func tsvField(_ text: String) -> String {
        Terminal.escape(text)
    }
}
