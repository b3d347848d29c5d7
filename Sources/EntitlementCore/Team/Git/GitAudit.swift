/// The audit view of a team store: for each event of a profile, the commit that recorded it.
struct GitAudit {
    /// A commit as the audit shows it.
    struct Commit: Equatable, Sendable {
        var id: String
        var author: GitIdentity
        /// git's `%G?` verdict (`G` good, `B` bad, `U` good but untrusted, `N` none, …); nil when not asked.
        var signature: String?

        var signatureDescription: String? {
            guard let signature else { return nil }
            switch signature {
            case "G": return "good"
            case "U": return "good (untrusted key)"
            case "X", "Y": return "good (expired)"
            case "R": return "good (revoked key)"
            case "B": return "bad"
            case "E": return "cannot check"
            default: return "none"
            }
        }
    }

    let repository: GitRepository
    let store: EntitlementStore

    /// For each event key (see `key(of:)`), the oldest non-merge commit that introduced it.
    func commits(for userID: String, verifySignatures: Bool) throws(EntitlementError) -> [String: Commit] {
        let name = ProfileFileName.name(for: userID)
        let paths = ProfileLayout.allCases.map { "\(EntitlementStore.profilesDirectory)/\($0.relativePath(forName: name, suffix: ".json"))" }
        let format = verifySignatures ? "%H%x1f%an%x1f%ae%x1f%G?" : "%H%x1f%an%x1f%ae"
        let log = try repository.run(["log", "--no-merges", "--format=\(format)", "--"] + paths)
        guard log.succeeded else { return [:] }
        let commits: [Commit] = log.output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3 else { return nil }
            return Commit(id: fields[0], author: GitIdentity(name: fields[1], email: fields[2]), signature: fields.count > 3 ? fields[3] : nil)
        }
        guard !commits.isEmpty else { return [:] }
        var request = ""
        for commit in commits {
            for path in paths { request += "\(commit.id):\(path)\n\(commit.id)^:\(path)\n" }
        }
        let objects = GitBatchOutput.parse(try repository.run(["cat-file", "--batch"], input: Array(request.utf8)).stdout)
        guard objects.count == commits.count * paths.count * 2 else { return [:] }
        var result: [String: Commit] = [:]
        // Newest first: an older commit that introduced the same event overrides.
        for (index, commit) in commits.enumerated() {
            var now = Set<String>(), before = Set<String>()
            for pathIndex in paths.indices {
                let base = (index * paths.count + pathIndex) * 2
                now.formUnion(Self.keys(objects[base]))
                before.formUnion(Self.keys(objects[base + 1]))
            }
            for key in now.subtracting(before) { result[key] = commit }
        }
        return result
    }

    /// The event keys of one version of a profile file.
    private static func keys(_ object: GitBatchOutput.Object?) -> Set<String> {
        guard let object, let profile = try? EntitlementStore.decodeProfile(object.content, path: "") else { return [] }
        var keys = Set<String>()
        for transaction in profile.transactions {
            keys.insert(key(transaction, revocation: false))
            if transaction.revokedAt != nil { keys.insert(key(transaction, revocation: true)) }
        }
        return keys
    }

    /// `store NUL transaction_id NUL added|revoked`.
    static func key(_ transaction: Transaction, revocation: Bool) -> String {
        "\(transaction.store.rawValue)\0\(transaction.transactionID)\0\(revocation ? "revoked" : "added")"
    }
}
