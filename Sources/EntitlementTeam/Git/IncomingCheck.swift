import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Before a merge, every profile and configuration file that arrives from the remote must be
/// one the tool can read: a broken file stops the sync, named, and never reaches the working tree.
struct IncomingCheck {
    let store: EntitlementStore
    let repository: GitRepository

    func verify(_ remoteRef: String) throws(EntitlementError) {
        let changed = try repository.check(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=AMT", "HEAD...\(remoteRef)"])
            .split(separator: "\0").map(String.init)
            .filter { $0 == EntitlementStore.configFileName || ($0.hasPrefix("\(EntitlementStore.profilesDirectory)/") && $0.hasSuffix(".json")) }
        guard !changed.isEmpty else { return }
        let request = changed.map { "\(remoteRef):\($0)\n" }.joined()
        let result = try repository.run(["cat-file", "--batch"], input: Array(request.utf8))
        guard result.succeeded else { throw .git(message: "cannot read \(remoteRef): \(GitRepository.firstLines(result.errorText))", hint: nil) }
        let remoteName = remoteRef.split(separator: "/").suffix(2).joined(separator: "/")
        for (path, object) in zip(changed, GitBatchOutput.parse(result.stdout)) {
            guard let object else { continue }
            let shown = "\(remoteName):\(path)"
            do throws(EntitlementError) {
                if path == EntitlementStore.configFileName {
                    let document = try EntitlementStore.parse(object.content, path: shown)
                    do { _ = try ProductConfiguration(json: document) } catch { throw EntitlementStore.fieldError(error, path: shown) }
                } else {
                    let profile = try EntitlementStore.decodeProfile(object.content, path: shown)
                    let expected = "\(ProfileFileName.name(for: profile.customerUserID)).json"
                    guard PathName.base(of: path) == expected else {
                        throw EntitlementError.invalidFile(path: shown, detail: "misplaced profile: it holds customer_user_id '\(profile.customerUserID)'")
                    }
                }
            } catch {
                throw .git(message: "the remote has a file this tool cannot read: \(error.description)",
                           hint: "Nothing was merged; your store and commits are unchanged. Fix the file in a clone, push the fix, then sync again.")
            }
        }
    }
}
