import EntitlementModel

/// The alias index: `index/alias/NAME` holds the customer user id whose profile lists the
/// alias NAME (RevenueCat `aliases`, `original_app_user_id`), so `check`, `status` and
/// `history` find a customer by any of its ids with one extra read, never a scan.
///
/// Unlike the profile-id index (a cache written after the profile), an alias entry is written
/// in the same journal as the profile that lists it: a store never has a profile whose alias
/// does not resolve. An entry is trusted only when the profile it names still lists the alias.
extension EntitlementStore {
    static let aliasIndexDirectory = StoreFileKind.aliasIndexEntry.directory

    func relativeAliasIndexPath(for alias: String) -> String {
        "\(Self.aliasIndexDirectory)/\(layout.relativePath(forName: ProfileFileName.name(for: alias)))"
    }

    func aliasIndexPath(for alias: String) -> String { "\(root)/\(relativeAliasIndexPath(for: alias))" }

    /// The profile that lists `alias` among its `aliases`, through the index; nil when none does.
    package func loadProfile(alias: String) throws(EntitlementError) -> Profile? {
        guard let bytes = try fileSystem.readFile(aliasIndexPath(for: alias)),
              let userID = String(validating: bytes, as: UTF8.self), !userID.isEmpty, !userID.utf8.elementsEqual(alias.utf8),
              let profile = try loadProfile(userID: userID),
              profile.customerAliases.contains(where: { $0.utf8.elementsEqual(alias.utf8) }) else { return nil }
        return profile
    }

    /// The profile of `id` as a customer user id, else as an alias: a customer's own id always
    /// wins over another customer's alias.
    package func loadProfile(userIDOrAlias id: String) throws(EntitlementError) -> Profile? {
        if let profile = try loadProfile(userID: id) { return profile }
        return try loadProfile(alias: id)
    }

    /// The index entries `profiles` need that are missing or name someone else: written in the
    /// journal that writes the profiles.
    func aliasIndexChanges(for profiles: [Profile]) throws(EntitlementError) -> [FileChange] {
        // By path, so that thousands of aliases cost each one lookup (the last profile listing one wins).
        var changes: [FileChange] = [], positions: [String: Int] = [:]
        for profile in profiles {
            let userID = Array(profile.customerUserID.utf8)
            for alias in profile.customerAliases where try fileSystem.readFile(aliasIndexPath(for: alias)) != userID {
                let path = relativeAliasIndexPath(for: alias)
                if let index = positions[path] {
                    changes[index].bytes = userID
                } else {
                    positions[path] = changes.count
                    changes.append(FileChange(path: path, bytes: userID))
                }
            }
        }
        return changes
    }
}
