import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The checks `verify` makes on a profile's `renewal_info`: facts that contradict each
/// other, which the engine would otherwise answer from silently.
enum RenewalLint {
    /// Problems in one renewal info object, keyed `original` in `renewal_info`.
    ///
    /// A pause that resumes before it began, or pause dates without `is_paused: true`, would
    /// make `paused` depend on which field a reader trusts; both are reported by field.
    static func problems(_ renewal: JSONObject, original: String) -> [(field: String, message: String)] {
        typealias K = RenewalInfo.CodingKeys
        let prefix = "renewal_info.\(original)"
        func date(_ key: K) -> Date? { renewal[key.rawValue]?.stringValue.flatMap(ISODate.parse) }
        var found: [(field: String, message: String)] = []
        if let paused = date(.pausedAt), let resumes = date(.resumesAt), resumes < paused {
            found.append(("\(prefix).\(K.resumesAt.rawValue)",
                          "resumes_at \(ISODate.format(resumes)) is before paused_at \(ISODate.format(paused))"))
        }
        let isPaused = renewal[K.isPaused.rawValue] == .bool(true)
        if !isPaused, let key = [K.pausedAt, .resumesAt].first(where: { date($0) != nil }) {
            found.append(("\(prefix).\(key.rawValue)", "\(key.rawValue) is set but is_paused is not true: the pause is ignored"))
        }
        return found
    }
}
