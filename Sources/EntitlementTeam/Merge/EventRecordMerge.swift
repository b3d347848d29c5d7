import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Two clones' records of one vendor event (`ingest/events/VENDOR/xx/SHA256(id).json`).
///
/// Both clones applied the event (the vendor delivered it to each, or each ingested the same
/// saved bodies), so each wrote a record with its own received time and outcome. Without a rule
/// git sees an add/add conflict and `sync` stops. The record kept is the one received first,
/// then the smaller bytes: the same answer whichever side merges, so clones converge. The
/// profiles need no help: applying one event twice gives the same records (docs/ingest.md).
enum EventRecordMerge {
    static func merge(ours: [UInt8], _ left: JSONValue, theirs: [UInt8], _ right: JSONValue) -> [UInt8] {
        let key = IngestRecordKeys.receivedAt
        let ourTime = left.objectValue?[key]?.stringValue.flatMap(ISODate.parse)
        let theirTime = right.objectValue?[key]?.stringValue.flatMap(ISODate.parse)
        if let ourTime, let theirTime, ourTime != theirTime { return ourTime < theirTime ? ours : theirs }
        return ours.lexicographicallyPrecedes(theirs) || ours == theirs ? ours : theirs
    }
}
