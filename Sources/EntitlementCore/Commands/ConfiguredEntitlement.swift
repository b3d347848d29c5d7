extension ProductConfiguration {
    /// Exit 2 with "Did you mean …?" unless `id` is configured: a typo must not pass as "no one".
    func requireConfigured(_ id: String, command: String, configPath: String) throws(EntitlementError) {
        guard entitlement(id) == nil else { return }
        let suggestion = Suggestion.closest(to: id, in: entitlementIDs).map { " Did you mean '\(Terminal.escape($0))'?" } ?? ""
        throw .usage("entitlement '\(Terminal.escape(id))' is not in the product configuration.\(suggestion)",
                     hint: "Configured: \(entitlementIDs.map(Terminal.escape).joined(separator: ", ")). Add new ones to \(Terminal.escape(configPath)).",
                     command: command)
    }
}
