import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `log` over a team store: git's history for the period, so the cost follows the period,
/// not the store.
///
/// `git log --raw` lists the commits of the period (committer time, widened by a day each
/// way: the tool commits as it records, but clocks differ) with the profiles each changed
/// (a merge: against its first parent) and their blob ids before and after; one
/// `cat-file --batch` reads those blobs (a merge's other parents by path). An event belongs to the commit whose version holds it while
/// no parent's does (as in `GitAudit`), so what a merge brought in is listed once, with the
/// commit that made it. Events are then filtered by their own time, as in a plain store.
/// An event recorded more than a day away from its commit (a purchase imported long after
/// it was made, say) is found by a plain sweep only (docs/commands.md, "log").
package struct GitLogReader {
    package let repository: GitRepository
    package let query: LogQuery
    package let engine: StatusEngine
    static let slack: TimeInterval = 86_400

    package init(repository: GitRepository, query: LogQuery, engine: StatusEngine) {
        self.repository = repository
        self.query = query
        self.engine = engine
    }

    /// A profile one commit changed: its blob there and in the first parent (nil when added).
    private struct File: Sendable {
        var path: String
        var before: String?
        var after: String
    }

    private struct Change: Sendable {
        var commit: GitAudit.Commit
        var parents: [String]
        var files: [File]
    }

    /// One profile version to read: the file, with its commit and the commit's parents.
    private struct Version: Sendable {
        var commit: GitAudit.Commit
        var parents: [String]
        var file: File
    }

    package func records() throws(EntitlementError) -> [LogRecord] {
        let versions = try commits().flatMap { change in change.files.map { Version(commit: change.commit, parents: change.parents, file: $0) } }
        // Git inflates the blobs and the tool decodes them: each core takes a share, with its
        // own `cat-file`.
        let parts = Parallel.mapParts(versions, threshold: 512) { part in
            Result { () throws(EntitlementError) -> [LogRecord] in try self.records(of: part) }
        }
        var found: [LogRecord] = []
        for part in parts { found += try part.get() }
        return LogRecord.arrange(found, limit: query.limit)
    }

    /// The events `versions` recorded that the query selects.
    private func records(of versions: ArraySlice<Version>) throws(EntitlementError) -> [LogRecord] {
        // Blob ids straight from `--raw`, so git walks no tree per request; only a merge's
        // other parents are asked for by path.
        var request = ""
        for version in versions {
            request += "\(version.file.after)\n\(version.file.before ?? Self.absent)\n"
            for parent in version.parents.dropFirst() { request += "\(parent):\(version.file.path)\n" }
        }
        guard !request.isEmpty else { return [] }
        let result = try repository.run(["cat-file", "--batch", "--buffer"], input: Array(request.utf8))
        guard result.succeeded else {
            throw .git(message: "cannot read the history of \(repository.root): \(GitRepository.firstLines(result.errorText))", hint: nil)
        }
        let objects = GitBatchOutput.parse(result.stdout)
        var records: [LogRecord] = []
        var offset = 0
        for version in versions {
            let stride = 1 + max(1, version.parents.count)
            defer { offset += stride }
            guard offset < objects.count, let profile = Self.profile(objects[offset]) else { continue }
            let candidates = HistoryEvent.events(of: profile).enumerated().filter { query.matches($0.element, engine: engine) }
            guard !candidates.isEmpty else { continue }
            // Only events of the candidates' transactions can hide one: no other key is made.
            let transactions = Set(candidates.map(\.element.transaction.transactionID))
            var known = Set<String>()
            for slot in 1..<stride where offset + slot < objects.count {
                guard let before = Self.profile(objects[offset + slot]) else { continue }
                for event in HistoryEvent.events(of: before) where transactions.contains(event.transaction.transactionID) {
                    known.insert(GitAudit.key(event))
                }
            }
            for (order, event) in candidates where !known.contains(GitAudit.key(event)) {
                records.append(LogRecord(event, customer: profile.customerUserID, engine: engine, order: order, recorded: version.commit))
            }
        }
        return records
    }

    /// What `cat-file --batch` answers "missing" to: the place of a parent's absent version.
    private static let absent = String(repeating: "0", count: 40)

    /// The commits of the period that changed profiles, with those profiles' blobs.
    private func commits() throws(EntitlementError) -> [Change] {
        var arguments = ["-c", "core.quotePath=false", "log", "--format=%x1e%H%x1f%P%x1f%an%x1f%ae", "--raw", "--no-abbrev", "--no-renames",
                         "--diff-merges=first-parent"]
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
            let files = lines.dropFirst().compactMap(Self.file)
            guard !files.isEmpty else { return nil }
            return Change(commit: GitAudit.Commit(id: fields[0], author: GitIdentity(name: fields[2], email: fields[3]), isMerge: parents.count > 1),
                          parents: parents, files: files)
        }
    }

    /// A `--raw` line, `:100644 100644 OLD NEW M<TAB>path`, of a profile still present after the commit.
    private static func file(_ line: Substring) -> File? {
        guard line.hasPrefix(":"), let tab = line.firstIndex(of: "\t") else { return nil }
        let path = String(line[line.index(after: tab)...])
        let fields = line[..<tab].split(separator: " ")
        guard path.hasSuffix(".json"), fields.count == 5, fields[3].utf8.count == 40, fields[3] != Substring(absent) else { return nil }
        return File(path: path, before: fields[2] == Substring(absent) ? nil : String(fields[2]), after: String(fields[3]))
    }

    private static func profile(_ object: GitBatchOutput.Object?) -> Profile? {
        guard let object, object.type == "blob" else { return nil }
        return try? EntitlementStore.decodeProfile(object.content, path: "")
    }
}
