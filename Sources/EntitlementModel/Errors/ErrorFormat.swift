import EntitlementJSON

/// How errors are printed: one human line (`Error: …`), or one JSON object under `--json`.
package enum ErrorFormat {
    /// Whether the command line asks for JSON (`--json`, `--output json|jsonl`), read before
    /// parsing so that even a usage error is JSON. Arguments after `--` are data.
    package static func wantsJSON(_ arguments: [String]) -> Bool {
        var index = 0
        var json = false
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == "--json" { json = true }
            if argument == "--output", index + 1 < arguments.count { json = ["json", "jsonl"].contains(arguments[index + 1]) || json }
            if argument == "--output=json" || argument == "--output=jsonl" { json = true }
            index += 1
        }
        return json
    }
}

extension EntitlementError {
    /// The error as data, the one shape of every JSON error: on standard error under
    /// `--json`, per line of `check --stdin`, per document of `import --json`
    /// (docs/json-output.md, "Errors"). The message is the text one, data in it escaped.
    package var json: JSONObject {
        JSONObject([
            ("code", .string(code)),
            ("message", .string(description)),
            ("hint", .string(hint)),
            ("exit_code", .int(Int(exitCode.rawValue))),
        ])
    }

    /// `{"error": {…}}` on one line, as printed on standard error.
    package var jsonLine: String {
        JSONWriter(style: .compact).string(.object(JSONObject([("error", .object(json))]))) + "\n"
    }
}
