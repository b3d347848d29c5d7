import EntitlementBasics
import EntitlementModel

extension StoreVerifier {
    /// Each `index/alias` entry must sit where the layout puts it and name a profile that lists
    /// that alias; a lookup by alias trusts nothing else (`EntitlementStore.loadProfile(alias:)`).
    func checkAliasIndex(into report: inout Report) throws(EntitlementError) {
        let directory = "\(store.root)/\(EntitlementStore.aliasIndexDirectory)"
        guard store.fileSystem.isDirectory(directory) else { return }
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
            guard let profileBytes = try? store.fileSystem.readFile(profilePath) else {
                report.problems.append(VerifyProblem(path: path, field: nil,
                                                     message: "points nowhere: no profile file \(profilePath) for '\(Terminal.escape(userID))'"))
                continue
            }
            guard let profile = try? EntitlementStore.decodeProfile(profileBytes, path: profilePath) else { continue }  // reported with the profile
            if !profile.customerAliases.contains(where: { ProfileFileName.name(for: $0) == name }) {
                report.problems.append(VerifyProblem(path: path, field: nil,
                                                     message: "points nowhere: the profile of '\(Terminal.escape(userID))' does not list this alias in \"aliases\""))
            }
        }
    }
}
