import EntitlementBasics
import EntitlementModel
import EntitlementStore

extension EntitlementStore {
    /// The store's git repository, when it is a team store.
    package func gitRepository(environment: [String: String]) -> GitRepository? {
        GitRepository.isRepository(root) ? GitRepository(root: root, environment: environment) : nil
    }

    /// This store, with every locked write committed when it is a team store.
    package func withTeamRecorder(environment: [String: String]) -> EntitlementStore {
        guard let repository = gitRepository(environment: environment) else { return self }
        var store = self
        store.recorder = GitChangeRecorder(repository: repository, durable: durable)
        return store
    }
}

extension GitRepository {
    /// git's `user.name` and `user.email`, when at least the name is set.
    package func userIdentity() throws(EntitlementError) -> GitIdentity? {
        let result = try run(["config", "--get-regexp", "^user\\.(name|email)$"])
        return result.succeeded ? GitIdentity(configLines: result.output) : nil
    }

    /// The user's global git identity, for a store that is not a repository yet.
    package func globalIdentity() throws(EntitlementError) -> GitIdentity? {
        guard let result = Subprocess.run(["git", "config", "--global", "--get-regexp", "^user\\.(name|email)$"], environment: environment),
              result.succeeded else { return nil }
        return GitIdentity(configLines: result.output)
    }
}

extension GitIdentity {
    /// From `git config --get-regexp '^user\.(name|email)$'` output; nil without a name.
    init?(configLines output: String) {
        var name: String?, email = ""
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if parts[0] == "user.name" { name = parts[1] } else if parts[0] == "user.email" { email = parts[1] }
        }
        guard let name, !name.isEmpty else { return nil }
        self.init(name: name, email: email)
    }
}
