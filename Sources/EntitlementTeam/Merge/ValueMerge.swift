import EntitlementBasics
import EntitlementJSON

/// The generic three-way merge of JSON values that every file-specific rule builds on.
///
/// `nil` means absent: a base of nil is "no common ancestor", and a side of nil
/// means the field is not there. For each value:
/// 1. both sides identical: that value;
/// 2. one side unchanged from the base: the other side's value (an edit, an
///    addition or a removal made on one side is taken);
/// 3. both sides objects: merged key by key, recursively;
/// 4. otherwise both sides changed it differently: the policy decides.
/// Every rule is symmetric in the two sides, so the result does not depend on which is "ours".
struct ValueMerge {
    var policy: ConflictPolicy
    /// Conflicts met under `.report`, in field order.
    private(set) var conflicts: [MergeConflict] = []

    init(policy: ConflictPolicy) { self.policy = policy }

    mutating func merge(base: JSONValue?, ours: JSONValue?, theirs: JSONValue?, path: String) -> JSONValue? {
        if JSONOrder.same(ours, theirs) { return ours }
        if JSONOrder.same(base, ours) { return theirs }
        if JSONOrder.same(base, theirs) { return ours }
        if case .object(let left)? = ours, case .object(let right)? = theirs {
            return .object(mergeObjects(base: base?.objectValue, ours: left, theirs: right, path: path))
        }
        return conflict(path: path, ours: ours, theirs: theirs)
    }

    /// Key-by-key merge of two objects; see `KeyOrder` for the order of the result's keys.
    mutating func mergeObjects(base: JSONObject?, ours: JSONObject, theirs: JSONObject, path: String,
                               skipping skipped: Set<String> = []) -> JSONObject {
        var merged: [(String, JSONValue)] = []
        for key in KeyOrder.union(base: base?.keys, ours: ours.keys, theirs: theirs.keys) where !skipped.contains(key) {
            let childPath = path.isEmpty ? key : "\(path).\(key)"
            if let value = merge(base: base?[key], ours: ours[key], theirs: theirs[key], path: childPath) {
                merged.append((key, value))
            }
        }
        return KeyOrder.arrange(JSONObject(merged), base: base?.keys, ours: ours.keys, theirs: theirs.keys)
    }

    /// Both sides changed the value at `path` differently.
    mutating func conflict(path: String, ours: JSONValue?, theirs: JSONValue?) -> JSONValue? {
        switch policy {
        case .greaterWins:
            return JSONOrder.greater(ours, theirs)
        case .report:
            conflicts.append(MergeConflict(field: path, message: "changed differently on both sides (ours: \(Self.describe(ours)), theirs: \(Self.describe(theirs)))"))
            return ours
        }
    }

    /// A short, escaped rendering of a value for messages.
    static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "removed" }
        let text = JSONWriter(style: .compact).string(value)
        return Terminal.escape(text.count > 60 ? String(text.prefix(57)) + "..." : text)
    }
}
