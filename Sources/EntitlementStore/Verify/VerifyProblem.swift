import EntitlementBasics
import EntitlementJSON

/// One problem `verify` found: the file, the field (if one is to blame) and what is wrong.
package struct VerifyProblem: Equatable, Sendable, Comparable {
    package var path: String
    var field: String?
    var message: String

    /// `path: field: message`, escaped for the terminal.
    package var text: String {
        var line = Terminal.escape(path) + ": "
        if let field { line += Terminal.escape(field) + ": " }
        return line + Terminal.escape(message)
    }

    package var json: JSONObject {
        JSONObject([("path", .string(path)), ("field", .string(field)), ("message", .string(message))])
    }

    package static func < (a: VerifyProblem, b: VerifyProblem) -> Bool {
        if a.path != b.path { return a.path < b.path }
        if (a.field ?? "") != (b.field ?? "") { return (a.field ?? "") < (b.field ?? "") }
        return a.message < b.message
    }
}
