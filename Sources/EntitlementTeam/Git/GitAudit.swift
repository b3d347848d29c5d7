import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// The audit view of a team store: for each event of a profile, the commit that recorded it.
///
/// An event is recorded by the oldest commit whose version of the profile holds it while
/// none of the commit's parents' versions do. An ordinary commit of the tool is such a
/// commit; a merge commit is one only for what the merge itself made (the revocation the
/// merge driver writes for a duplicate idempotency key), never for what it brought in.
package struct GitAudit {
    /// A commit as the audit shows it.
    package struct Commit: Equatable, Sendable {
        package var id: String
        package var author: GitIdentity
        /// git's `%G?` verdict (`G` good, `B` bad, `U` good but untrusted, `N` none, …); nil when not asked.
        var signature: String?
        /// True for a merge commit (the event was made by the merge).
        var isMerge = false

        package var signatureDescription: String? {
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

    package init(repository: GitRepository, store: EntitlementStore) {
        self.repository = repository
        self.store = store
    }

    /// For each event key (see `key(_:kind:at:)`), the commit that recorded it.
    package func commits(for userID: String, verifySignatures: Bool) throws(EntitlementError) -> [String: Commit] {
        let name = ProfileFileName.name(for: userID)
        let paths = ProfileLayout.allCases.map { "\(EntitlementStore.profilesDirectory)/\($0.relativePath(forName: name, suffix: ".json"))" }
        let format = verifySignatures ? "%H%x1f%P%x1f%an%x1f%ae%x1f%G?" : "%H%x1f%P%x1f%an%x1f%ae"
        let log = try repository.run(["log", "--format=\(format)", "--"] + paths)
        guard log.succeeded else { return [:] }
        let commits: [(commit: Commit, parents: [String])] = log.output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else { return nil }
            let parents = fields[1].split(separator: " ").map(String.init)
            return (Commit(id: fields[0], author: GitIdentity(name: fields[2], email: fields[3]), signature: fields.count > 4 ? fields[4] : nil,
                           isMerge: parents.count > 1), parents)
        }
        guard !commits.isEmpty else { return [:] }
        var request = ""
        for (commit, parents) in commits {
            for revision in [commit.id] + parents {
                for path in paths { request += "\(revision):\(path)\n" }
            }
        }
        let objects = GitBatchOutput.parse(try repository.run(["cat-file", "--batch"], input: Array(request.utf8)).stdout)
        let expected = commits.reduce(0) { $0 + (1 + $1.parents.count) * paths.count }
        guard objects.count == expected else { return [:] }
        var result: [String: Commit] = [:]
        var offset = 0
        func keys(at revision: Int) -> Set<String> {
            var keys = Set<String>()
            for pathIndex in paths.indices { keys.formUnion(Self.keys(objects[offset + revision * paths.count + pathIndex])) }
            return keys
        }
        // git lists newest first: an older commit that also introduced the key overrides.
        for (commit, parents) in commits {
            var introduced = keys(at: 0)
            for parent in parents.indices { introduced.subtract(keys(at: parent + 1)) }
            for key in introduced { result[key] = commit }
            offset += (1 + parents.count) * paths.count
        }
        return result
    }

    /// The event keys of one version of a profile file.
    private static func keys(_ object: GitBatchOutput.Object?) -> Set<String> {
        guard let object, let profile = try? EntitlementStore.decodeProfile(object.content, path: "") else { return [] }
        return Set(HistoryEvent.events(of: profile).map { key($0.transaction, kind: $0.kind, at: $0.at) })
    }

    /// The key of `event`.
    package static func key(_ event: HistoryEvent) -> String { key(event.transaction, kind: event.kind, at: event.at) }

    /// `store NUL transaction_id NUL added`, or `… NUL revoked|restore NUL date` (a grant can
    /// be revoked, restored and revoked again: each is its own event).
    static func key(_ transaction: Transaction, kind: HistoryEvent.Kind, at: Date) -> String {
        let prefix = "\(transaction.store.rawValue)\0\(transaction.transactionID)\0"
        switch kind {
        case .purchase, .grant: return prefix + "added"
        case .revocation, .restore, .transfer: return prefix + "\(kind.rawValue)\0\(ISODate.format(at))"
        }
    }
}
