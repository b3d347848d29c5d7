import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Records that live ingest set carry the event that last set them (`applied_event`, and the
/// profile's `last_event`: `{at, vendor, id}`). Ingest changes such a record only for a newer
/// event (docs/ingest.md, "Order"), so when two clones set it from different events the merge
/// keeps the record of the newer event whole, as a single store that saw both would have it.
/// Merged field by field instead, the sides' fields mix into a state no event stated.
enum EventStampMerge {
    /// The stamp of `value` (`{at, vendor, id}`), ordered by time, then vendor, then id.
    static func stamp(_ value: JSONValue?) -> (at: Date, vendor: String, id: String)? {
        guard let object = value?.objectValue, let at = object["at"]?.stringValue.flatMap(ISODate.parse),
              let vendor = object["vendor"]?.stringValue, let id = object["id"]?.stringValue else { return nil }
        return (at, vendor, id)
    }

    /// The side whose stamp under `key` is newer, when both have one and they differ; nil otherwise
    /// (the generic merge decides). Symmetric: the answer does not depend on which side is ours.
    static func newer(_ key: String, ours: JSONObject, theirs: JSONObject) -> JSONObject? {
        newerValue(ours[key], theirs[key]) == nil ? nil : (newerValue(ours[key], theirs[key]) == .some(true) ? theirs : ours)
    }

    /// True when `theirs` is the newer stamp, false when `ours` is; nil when either has none or they are equal.
    static func newerValue(_ ours: JSONValue?, _ theirs: JSONValue?) -> Bool? {
        guard let left = stamp(ours), let right = stamp(theirs), left != right else { return nil }
        return left < right
    }

    /// A transaction both sides hold: the newer event's record, if both were set by events.
    static func transaction(ours: JSONObject, theirs: JSONObject) -> JSONObject? {
        newer(IngestRecordKeys.appliedEvent, ours: ours, theirs: theirs)
    }

    /// The profile's `last_event` and each `renewal_info` entry both sides set from events.
    static func apply(to merged: inout JSONObject, ours: JSONObject, theirs: JSONObject) {
        let last = IngestRecordKeys.lastEvent
        if let theirsNewer = newerValue(ours[last], theirs[last]) { merged[last] = theirsNewer ? theirs[last] : ours[last] }
        let renewals = Profile.CodingKeys.renewalInfo.rawValue
        guard let left = ours[renewals]?.objectValue, let right = theirs[renewals]?.objectValue,
              case .object(var entries)? = merged[renewals] else { return }
        for key in left.keys {
            guard let a = left[key]?.objectValue, let b = right[key]?.objectValue,
                  let winner = newer(IngestRecordKeys.appliedEvent, ours: a, theirs: b) else { continue }
            entries[key] = .object(winner)
        }
        merged[renewals] = .object(entries)
    }
}
