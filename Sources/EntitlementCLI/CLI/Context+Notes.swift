import EntitlementJSON

/// Notes and warnings on standard error, in the run's error format.
///
/// Under `--json` a script reads standard error line by line as JSON (errors are
/// `{"error": …}`), so a plain-text note there would break its parser: each note and
/// warning is one compact object on its own line (docs/json-output.md, "Notes and warnings").
extension Context {
    /// `Note: …` for a person, `{"note": "…"}` under `--json`; nothing under `-q`.
    /// `message` is one sentence without the prefix or the final newline, data already escaped.
    func note(_ message: String) {
        guard !quiet else { return }
        stderr.write(Self.stderrLine(key: "note", prefix: "Note: ", message: message, json: json))
    }

    /// `warning: …` for a person, `{"warning": "…"}` under `--json`; printed even under `-q`,
    /// since a warning is about data, not chatter.
    func warning(_ message: String) {
        stderr.write(Self.stderrLine(key: "warning", prefix: "warning: ", message: message, json: json))
    }

    static func stderrLine(key: String, prefix: String, message: String, json: Bool) -> String {
        guard json else { return prefix + message + "\n" }
        return JSONWriter(style: .compact).string(.object(JSONObject([(key, .string(message))]))) + "\n"
    }
}
