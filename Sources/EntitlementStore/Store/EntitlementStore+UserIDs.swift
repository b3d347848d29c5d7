import EntitlementModel

extension EntitlementStore {
    /// Up to `limit` customer user ids whose bytes start with `prefix`, read from profile
    /// file names alone (no profile is opened), sorted by their file names.
    ///
    /// For shell completion: names are compared as raw bytes with the escaped prefix, and
    /// only matches become strings; the listing stops once `limit` ids match, so which ids
    /// make the cut then follows directory order. Ids stored under the SHA-256 form of the
    /// name (very long ids) cannot be read back from the name and are not listed. This is
    /// the one place that knows how profile file names map back to ids when listing
    /// (`CompletionCache` answers the same question from its sorted copy of the names).
    package func userIDs(withPrefix prefix: String, limit: Int) throws(EntitlementError) -> [String] {
        try requireExists()
        guard limit > 0, let escapedPrefix = ProfileFileName.escapedWithoutHashing(prefix) else { return [] }
        let wanted = Array(escapedPrefix.utf8)
        var found: [(name: [UInt8], id: String)] = []
        let listing = ProfileNameListing(profilesPath: profilesPath, layout: layout)
        do {
            try listing.forEachName { name in
                guard name.starts(with: wanted), let id = ProfileFileName.userID(fromName: name) else { return true }
                found.append((Array(name), id))
                return found.count < limit
            }
        } catch {
            // Completion answers what it could read; `verify` reports an unreadable folder.
        }
        return found.sorted { $0.name.lexicographicallyPrecedes($1.name) }.map(\.id)
    }
}
