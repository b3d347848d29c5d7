import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Makes a store a team store: a git repository whose profile and configuration files merge
/// through the tool's merge driver, also for a person running plain `git pull`.
package enum GitSetup {
    /// The merge driver's lines, one per kind of committed file it merges (`StoreFileKind`).
    static let mergeLines = StoreFileKind.allCases.compactMap(\.mergePattern).map { "\($0) merge=entitlement\n" }.joined()

    static let attributes = "# Profiles, their indexes, the ingest records and the configuration merge semantically (docs/team-store.md).\n"
        + mergeLines + "\n"

    static let ignored = "# The writer lock, its journal, files being written and webhook requests waiting or failed:\n"
        + "# local to each copy, never part of the store's history (applied events are committed).\n"
        + StoreFileKind.localPaths.map { "\($0)\n" }.joined() + "\n"

    /// `.git/info/attributes`: it outranks every `.gitattributes` and no push can change it, so
    /// a pushed `profiles/** merge=union` or `working-tree-encoding` has no effect. Every file
    /// is checked out byte for byte (no encoding, filter, ident or end-of-line conversion).
    static let privateAttributes = "# entitlement: written by 'init --git' and 'clone'; outranks .gitattributes (docs/team-store.md, \"Security\").\n"
        + "* -text -eol -working-tree-encoding -ident -filter merge\n" + mergeLines + "\n"

    /// The store's git settings: the merge driver; `git pull` merges (so the driver runs);
    /// git's own files in `.git` private whatever the umask (`core.sharedRepository=0600`);
    /// a split index, whose small file the tool rewrites after each commit (`SplitIndexUpdate`),
    /// without the untracked cache and fsmonitor extensions, which it would have to drop
    /// (docs/performance.md, "Git's index after a commit").
    static func settings(environment: [String: String]) -> [(key: String, value: String)] {
        [("merge.entitlement.name", "entitlement semantic merge (docs/team-store.md)"),
         ("merge.entitlement.driver", driverCommand(environment: environment)),
         ("pull.rebase", "false"),
         ("core.sharedRepository", "0600"),
         ("core.splitIndex", "true"),
         ("core.untrackedCache", "false"),
         ("core.fsmonitor", "false")]
    }

    /// The merge driver command line git runs: this program's `merge-driver`.
    static func driverCommand(environment: [String: String]) -> String {
        "\(shellQuoted(executablePath(environment: environment))) merge-driver %O %A %B %P"
    }

    /// `$ENTITLEMENT_EXECUTABLE`, else the running program's own path.
    static func executablePath(environment: [String: String]) -> String {
        if let path = environment["ENTITLEMENT_EXECUTABLE"], !path.isEmpty { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = (try? systemCall("readlink") { readlink("/proc/self/exe", &buffer, buffer.count - 1) }) ?? 0
        guard count > 0 else { return "entitlement" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local settings `init --git` and `clone` make (git never copies them with a clone).
    package static func configure(_ repository: GitRepository) throws(EntitlementError) {
        for setting in settings(environment: repository.environment) { try repository.check(["config", setting.key, setting.value]) }
        try GitFiles.makeDirectory("\(repository.gitDirectory)/info")
        try GitFiles.writeAtomically(Array(privateAttributes.utf8), to: "\(repository.gitDirectory)/info/attributes")
        try GitIndex.installHooks(repository)
        try GitPermissions.installHooks(repository)
        try GitPermissions.makePrivate(repository)
    }

    /// For a clone made by an older version: the set-up above, once, when its private
    /// attributes are missing or differ (one small read otherwise). `sync` calls it first.
    static func upgradeIfNeeded(_ repository: GitRepository) throws(EntitlementError) {
        let current = try GitFiles.read("\(repository.gitDirectory)/info/attributes")
        if current != Array(privateAttributes.utf8) { try configure(repository) }
    }

    /// Turns the store at `store.root` into a team store and commits every file in it.
    /// Returns the first commit.
    @discardableResult
    package static func initialize(_ store: EntitlementStore, actor: String, summary: String, environment: [String: String]) throws(EntitlementError) -> String? {
        let repository = GitRepository(root: store.root, environment: environment)
        if !GitRepository.isRepository(store.root) {
            try repository.check(["init", "--quiet"])
            try repository.check(["symbolic-ref", "HEAD", "refs/heads/main"])
        }
        try configure(repository)
        for (name, text) in [(".gitattributes", attributes), (".gitignore", ignored)] where !GitFiles.exists("\(store.root)/\(name)") {
            try GitFiles.writeAtomically(Array(text.utf8), to: "\(store.root)/\(name)", durable: store.durable)
        }
        let author = GitIdentity(actor: actor)
        // A new repository: one bulk load (one pack, not a loose object per file).
        if try !repository.run(["rev-parse", "--verify", "--quiet", "HEAD"]).succeeded {
            return try GitBulkLoad.commitEverything(repository, message: summary, author: author)
        }
        try repository.check(["add", "--all", "--", "."])
        var environment = ["GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email]
        if try repository.userIdentity() == nil {
            environment["GIT_COMMITTER_NAME"] = author.name
            environment["GIT_COMMITTER_EMAIL"] = author.email
        }
        try repository.check(["commit", "--quiet", "--allow-empty", "-F", "-"], input: Array((summary + "\n").utf8), extraEnvironment: environment)
        return try repository.check(["rev-parse", "HEAD"]).trimmingWhitespace
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
