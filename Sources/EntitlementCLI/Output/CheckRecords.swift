import EntitlementJSON

/// `check` answers as records: the fields of csv, tsv and table output, one row per user.
/// On a narrow terminal the table drops, in order: EVALUATED, PROFILE, ENTITLEMENT, ACTIVE
/// and EXPIRES; LINE, USER, STATE and ERROR stay (else vertical records).
enum CheckRecords {
    /// `line` (the input line of `check --stdin`; empty for a single check) comes last, so the
    /// columns before it keep their places.
    static let fieldNames = ["customer_user_id", "id", "state", "is_active", "expires_at", "profile_id", "error", "evaluated_at", "line"]

    /// The table's columns, LINE first; `tableRow` puts the fields in this order.
    static let columns: [TextTable.Column] = [
        .init("LINE"), .init("USER"), .init("ENTITLEMENT", dropRank: 2), .init("STATE"), .init("ACTIVE", dropRank: 3),
        .init("EXPIRES", dropRank: 4), .init("PROFILE", dropRank: 1), .init("ERROR"), .init("EVALUATED", dropRank: 0),
    ]

    /// The fields in the table's column order, `-` for an empty one.
    static func tableRow(_ fields: [String]) -> [String] {
        ([fields[fields.count - 1]] + fields.dropLast()).map { $0.isEmpty ? "-" : $0 }
    }

    /// The fields of one answer (the JSON line's object): empty where there is no value,
    /// the error's code where there is an error.
    static func fields(_ object: JSONObject) -> [String] {
        func text(_ key: String) -> String {
            switch object[key] {
            case .string(let value): return value
            case .bool(let flag): return flag ? "true" : "false"
            case .number(let number): return number
            case .object(let error):
                if case .string(let code) = error["code"] { return code }
                return ""
            default: return ""
            }
        }
        return fieldNames.map(text)
    }
}
