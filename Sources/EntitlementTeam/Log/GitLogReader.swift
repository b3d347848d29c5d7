import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `log` over a team store: git's history for the period, so the cost follows the period,
/// not the store.
///
/// `git log` lists the commits of the period (committer time, widened by a day each way:
/// the tool commits as it records, but clocks differ) with the profiles each changed
/// (a merge: against its first parent); one `cat-file --batch` reads those profiles at the
/// commit and at its parents. An event belongs to the commit whose version holds it while
/// no parent's does (as in `GitAudit`), so what a merge brought in is listed once, with the
/// commit that made it. Events are then filtered by their own time, as in a plain store.
/// An event recorded more than a day away from its commit (a purchase imported long after
/// it was made, say) is found by a plain sweep only (docs/commands.md, "log").
package struct GitLogReader {
    package let repository: GitRepository
    package let query: LogQuery
    package let engine: StatusEngine
    package static let slack: TimeInterval = 86_400

    package init(repository: GitRepository, query: LogQuery, engine: StatusEngine) {
        self.repository = repository
        self.query = query
        self.engine = engine
    }

    private struct Change {
        var commit: GitAudit.Commit
        var parents: [String]
        var paths: [String]
    }

    package func records() throws(EntitlementError) -> [LogRecord] {
        let changes = try commits()
        var request = ""
        for change in changes {
            for revision in [change.commit.id] + change.parents {
                for path in change.paths { request += "\(revision):\(path)\n" }
            }
        }
        guard !request.isEmpty else { return [] }
        let objects = GitBatchOutput.parse(try repository.run(["cat-file", "--batch"], input: Array(request.utf8)).stdout)
        var records: [LogRecord] = []
        var offset = 0
        for change in changes {
            let count = change.paths.count
            for (index, _) in change.paths.enumerated() {
                guard offset + index < objects.count, let profile = Self.profile(objects[offset + index]) else { continue }
                var known = Set<String>()
                for parent in change.parents.indices where offset + (parent + 1) * count + index < objects.count {
                    if let before = Self.profile(objects[offset + (parent + 1) * count + index]) {
                        known.formUnion(HistoryEvent.events(of: before).map(GitAudit.key))
                    }
                }
                for (order, event) in HistoryEvent.events(of: profile).enumerated() where !known.contains(GitAudit.key(event)) {
                    guard query.matches(event, engine: engine) else { continue }
                    records.append(LogRecord(event, customer: profile.customerUserID, engine: engine, order: order, recorded: change.commit))
                }
            }
            offset += (1 + change.parents.count) * count
        }
        return LogRecord.arrange(records, limit: query.limit)
    }

    /// The commits of the period that changed profiles, with those profiles' paths.
    private func commits() throws(EntitlementError) -> [Change] {
        var arguments = ["-c", "core.quotePath=false", "log", "--format=%x1e%H%x1f%P%x1f%an%x1f%ae", "--name-only", "--no-renames", "--diff-merges=first-parent"]
        if let since = query.since { arguments.append("--since=@\(Int((since.timeIntervalSince1970 - Self.slack).rounded(.down)))") }
        if let until = query.until { arguments.append("--until=@\(Int((until.timeIntervalSince1970 + Self.slack).rounded(.up)))") }
        let result = try repository.run(arguments + ["--", EntitlementStore.profilesDirectory])
        guard result.succeeded else {
            // A store without a commit yet has no history to show.
            if result.errorText.contains("does not have any commits") { return [] }
            throw .git(message: "cannot read the history of \(repository.root): \(GitRepository.firstLines(result.errorText))", hint: nil)
        }
        return result.output.split(separator: "\u{1E}").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let header = lines.first else { return nil }
            let fields = header.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else { return nil }
            let parents = fields[1].split(separator: " ").map(String.init)
            let paths = lines.dropFirst().map(String.init).filter { $0.hasSuffix(".json") }
            guard !paths.isEmpty else { return nil }
            return Change(commit: GitAudit.Commit(id: fields[0], author: GitIdentity(name: fields[2], email: fields[3]), isMerge: parents.count > 1),
                          parents: parents, paths: paths)
        }
    }

    private static func profile(_ object: GitBatchOutput.Object?) -> Profile? {
        guard let object, object.type == "blob" else { return nil }
        return try? EntitlementStore.decodeProfile(object.content, path: "")
    }
}
