import EntitlementBasics
import EntitlementModel

extension StoreVerifier {
    /// Each `index/alias` entry must sit where the layout puts it and name a profile that lists
    /// that alias; a lookup by alias trusts nothing else (`EntitlementStore.loadProfile(alias:)`).
    func checkAliasIndex(into report: inout Report) throws(EntitlementError) {
        let directory = "\(store.root)/\(EntitlementStore.aliasIndexDirectory)"
        guard store.fileSystem.isDirectory(directory) else { return }
        // Each customer's profile is read once and its aliases' file names kept: a customer with
        // thousands of aliases costs its profile once, not once per entry.
        var listed: [String: Set<String>?] = [:]
        for path in try indexEntries(directory, depth: 0) {
            let name = PathName.base(of: path)
            let expected = "\(directory)/\(store.layout.relativePath(forName: name))"
            guard path == expected else {
                report.problems.append(VerifyProblem(path: path, field: nil, message: "misplaced alias index entry: it belongs at \(expected)"))
                continue
            }
            guard let bytes = try? store.fileSystem.readFile(path), let userID = String(validating: bytes, as: UTF8.self), !userID.isEmpty else {
                report.problems.append(VerifyProblem(path: path, field: nil, message: "unreadable alias index entry: it must hold a customer user id in UTF-8"))
                continue
            }
            let profilePath = store.profilePath(for: userID)
            if listed[userID] == nil {
                if let bytes = try? store.fileSystem.readFile(profilePath) {
                    let profile = try? EntitlementStore.decodeProfile(bytes, path: profilePath)
                    listed[userID] = .some(profile.map { Set($0.customerAliases.map(ProfileFileName.name(for:))) } ?? nil)
                } else {
                    listed[userID] = .some(nil)
                }
            }
            guard case .some(.some(let names)) = listed[userID] else {
                if (try? store.fileSystem.status(profilePath)) == nil {
                    report.problems.append(VerifyProblem(path: path, field: nil,
                                                         message: "points nowhere: no profile file \(profilePath) for '\(Terminal.escape(userID))'"))
                }
                continue  // an unreadable profile is reported with the profile
            }
            if !names.contains(name) {
                report.problems.append(VerifyProblem(path: path, field: nil,
                                                     message: "points nowhere: the profile of '\(Terminal.escape(userID))' does not list this alias in \"aliases\""))
            }
        }
    }
}

extension ProfileLint {
    /// Each alias the profile lists must have its index entry: without one, `check ALIAS` does
    /// not find the customer. An entry that names another customer who also lists the alias is
    /// a settled conflict (a team merge), not a problem.
    func aliasIndexProblems(_ profile: Profile) -> [String] {
        profile.customerAliases.compactMap { alias in
            let path = store.aliasIndexPath(for: alias)
            if (try? store.fileSystem.readFile(path)) != nil { return nil }
            return "alias '\(Terminal.escape(alias))' has no index entry (\(path)): lookups by it do not find this customer; the next write of this profile adds it"
        }
    }
}
