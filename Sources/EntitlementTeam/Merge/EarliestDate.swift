import FoundationEssentials
import EntitlementBasics
import EntitlementJSON

/// The rule for dates that record when something first happened (`created_at`,
/// `purchased_at`, `granted_at`): where the sides differ, the earlier instant wins,
/// whatever the base says; at the same instant, the greater spelling.
enum EarliestDate {
    /// The value to keep for `key`, or nil when neither side holds a date there
    /// (the caller then merges the field like any other).
    static func pick(_ key: String, ours: JSONObject, theirs: JSONObject) -> JSONValue? {
        let left = ours[key], right = theirs[key]
        switch (date(left), date(right)) {
        case (nil, nil): return nil
        case (_?, nil): return left
        case (nil, _?): return right
        case (let a?, let b?): return a == b ? JSONOrder.greater(left, right) : (a < b ? left : right)
        }
    }

    private static func date(_ value: JSONValue?) -> Date? { value?.stringValue.flatMap(ISODate.parse) }
}
