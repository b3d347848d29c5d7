import EntitlementBasics
import EntitlementModel

/// `verify --fix`: gives back every profile id a store's index still holds to the customer
/// it names, for stores merged before ids were kept as aliases.
///
/// Two clones that each created the same new customer wrote two index entries,
/// `index/profile-id/X` and `…/Y`, both naming the customer; an older merge kept one id in
/// the profile and dropped the other, so Y "points nowhere" in `verify` and the id someone
/// pasted into a ticket stopped resolving. Each creation's index entry survives such a merge
/// (the two have different names), so the entries are the record of every id given out:
/// each one naming a customer whose profile does not answer to it becomes one of that
/// profile's `profile_id_aliases`, as today's merge keeps it. All repaired profiles are
/// written in one journal (all or none); in a team store that is one commit.
package enum ProfileIDRepair {
    /// One id given back: the customer, the id, and the index entry that recorded it.
    package struct Restored: Equatable, Sendable {
        package var customerUserID: String
        package var profileID: String
        package var indexEntry: String
    }

    /// Repairs the store under the writer lock; returns what it restored (nothing: no write, no commit).
    package static func run(_ store: EntitlementStore, change: ChangeDescription) throws(EntitlementError) -> [Restored] {
        try store.withWriteLock(change) { () throws(EntitlementError) -> [Restored] in
            let (profiles, restored) = try plan(store)
            if !profiles.isEmpty { try store.save(configuration: nil, profiles: profiles) }
            return restored
        }
    }

    /// The profiles to rewrite, with the ids each gains, read from the store as it is.
    static func plan(_ store: EntitlementStore) throws(EntitlementError) -> (profiles: [Profile], restored: [Restored]) {
        let directory = "\(store.root)/\(EntitlementStore.profileIDIndexDirectory)"
        guard store.fileSystem.isDirectory(directory) else { return ([], []) }
        var profiles: [String: Profile] = [:]
        var restored: [Restored] = []
        for path in try StoreVerifier(store: store).indexEntries(directory, depth: 0) {
            let name = Array(PathName.base(of: path).utf8)
            // A hashed name (an id over 200 bytes escaped) cannot be read back into its id.
            guard let id = name.withUnsafeBufferPointer({ ProfileFileName.userID(fromName: $0) }), !id.isEmpty,
                  let bytes = try? store.fileSystem.readFile(path), let userID = String(validating: bytes, as: UTF8.self), !userID.isEmpty else { continue }
            // A missing or unreadable profile is verify's to report; nothing here can mend it.
            guard var profile = profiles[userID] ?? ((try? store.loadProfile(userID: userID)) ?? nil), !profile.answers(toProfileID: id) else { continue }
            profile.profileIDAliases = Set(profile.profileIDAliases + [id]).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            profiles[userID] = profile
            restored.append(Restored(customerUserID: userID, profileID: id, indexEntry: String(path.dropFirst(store.root.count + 1))))
        }
        return (profiles.keys.sorted().compactMap { profiles[$0] }, restored)
    }
}
