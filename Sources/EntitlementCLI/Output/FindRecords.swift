import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// `find`'s records: one per matching customer and access level, in every `--output` format.
/// On a narrow terminal the table drops, in order: the relative dates, then PRODUCT, STORE,
/// EXPIRES and ENTITLEMENT; CUSTOMER and STATE stay (else vertical records).
enum FindRecords {
    static let columns: [TextTable.Column] = [
        .init("CUSTOMER"), .init("ENTITLEMENT", dropRank: 4), .init("STATE"), .init("EXPIRES", dropRank: 3),
        .init("STORE", dropRank: 2), .init("PRODUCT", dropRank: 1),
    ]
    /// The index of STATE in `columns` (coloured by state).
    static let stateColumn = 2

    /// csv and tsv: the header row, snake_case as in JSON.
    static let fieldNames = [
        "customer_user_id", "id", "state", "is_active", "expires_at", "renew_state", "store", "product_id", "profile_id", "evaluated_at",
    ]

    /// A table row and the short forms of its cells.
    static func row(_ level: AccessLevel, profile: Profile, at date: Date) -> (cells: [String], short: [Int: String]) {
        let product = level.productID ?? (level.grantType == .manual ? "(manual grant)" : "-")
        return ([profile.customerUserID, level.id, level.state.rawValue, AccessLevelText.expiry(level, at: date), level.store?.rawValue ?? "-", product],
                [3: AccessLevelText.expiry(level, at: date, relative: false)])
    }

    /// The csv and tsv fields: machine values, empty for null.
    static func fields(_ level: AccessLevel, profile: Profile, at date: Date) -> [String] {
        [profile.customerUserID, level.id, level.state.rawValue, level.isActive ? "true" : "false", level.expiresAt.map(ISODate.format) ?? "",
         level.renewState.rawValue, level.store?.rawValue ?? "", level.productID ?? "", profile.profileID ?? "", ISODate.format(date)]
    }

    /// The access level, as `check --json` prints it, with the customer: the jsonl line.
    static func object(_ level: AccessLevel, profile: Profile, at date: Date) -> JSONObject {
        var object = level.json
        object["customer_user_id"] = .string(profile.customerUserID)
        object["profile_id"] = .string(profile.profileID)
        object["evaluated_at"] = .string(ISODate.format(date))
        return object
    }
}
