/// `check` answers as records: the fields of csv, tsv and table output, one row per user.
/// On a narrow terminal the table drops, in order: EVALUATED, PROFILE, ENTITLEMENT, ACTIVE
/// and EXPIRES; USER, STATE and ERROR stay (else vertical records).
enum CheckRecords {
    static let fieldNames = ["customer_user_id", "id", "state", "is_active", "expires_at", "profile_id", "error", "evaluated_at"]

    static let columns: [TextTable.Column] = [
        .init("USER"), .init("ENTITLEMENT", dropRank: 2), .init("STATE"), .init("ACTIVE", dropRank: 3), .init("EXPIRES", dropRank: 4),
        .init("PROFILE", dropRank: 1), .init("ERROR"), .init("EVALUATED", dropRank: 0),
    ]

    /// The fields of one answer (the JSON line's object): empty where there is no value,
    /// the error's code where there is an error.
    static func fields(_ object: JSONObject) -> [String] {
        func text(_ key: String) -> String {
            switch object[key] {
            case .string(let value): return value
            case .bool(let flag): return flag ? "true" : "false"
            case .object(let error):
                if case .string(let code) = error["code"] { return code }
                return ""
            default: return ""
            }
        }
        return fieldNames.map(text)
    }
}
