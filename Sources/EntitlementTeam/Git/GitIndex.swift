import EntitlementBasics
import EntitlementModel

/// Git's index in a team store: current after every tool command, at any size.
///
/// The tool's commits are made by plumbing. Each commit appends the paths it changed to
/// `.git/entitlement/index-stale` (NUL-separated, before the commit's ref moves), then brings
/// the index up to date for those paths at once. Team stores use git's split index
/// (`core.splitIndex`): the tool rewrites its small file itself (`SplitIndexUpdate`), which
/// costs what the change costs; where it cannot (a deletion, an index not yet split, a
/// person's git holding `index.lock`), git's `update-index --split-index` does it, reading
/// the whole index once. The record outlives a crash or a busy index: `sync` catches up at
/// its start, and two hooks `init --git` and `clone` install catch up for people who use git
/// directly (`reference-transaction`, so `git pull` refreshes after its fetch; `pre-commit`,
/// so `git commit` never commits old versions). See docs/team-store.md, "Git's index".
enum GitIndex {
    static func stalePath(_ repository: GitRepository) -> String { "\(repository.gitDirectory)/entitlement/index-stale" }

    /// Records that the index entries of `paths` may be older than HEAD.
    static func noteStale(_ paths: [String], in repository: GitRepository, durable: Bool) throws(EntitlementError) {
        guard !paths.isEmpty else { return }
        let path = stalePath(repository)
        try GitFiles.makeDirectory(PathName.directory(of: path))
        try GitFiles.append(Array(paths.map { $0 + "\0" }.joined().utf8), to: path, durable: durable)
    }

    /// Brings the index entries of every recorded path up to date. Call under the store lock.
    /// `hashed`: files a commit has just read and hashed, whose blob ids are not computed again.
    static func refresh(_ repository: GitRepository, limits: SplitIndexUpdate.Limits = .standard,
                        hashed: [String: SplitIndexUpdate.HashedFile] = [:]) throws(EntitlementError) {
        let path = stalePath(repository)
        guard let bytes = try GitFiles.read(path) else { return try SplitIndexUpdate.convertNamedEntries(in: repository) }
        if !bytes.isEmpty {
            let paths = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if case .leftToGit(let fold) = try SplitIndexUpdate.apply(paths, in: repository, limits: limits, hashed: hashed) {
                // `--split-index`: a store whose index is not split yet (made by an older version)
                // is split now, once, so that the next commits take the path above. A change too
                // big for the small file is folded into a new shared index. (Never because of the
                // small file's cache tree, which git writes there and the tool drops: folding
                // would write it again, and every later commit would fold too.)
                let folding = fold ? ["-c", "splitIndex.maxPercentChange=0"] : []
                try repository.check(folding + ["update-index", "-q", "--split-index", "--add", "--remove", "-z", "--stdin"], input: bytes)
            }
        }
        try GitFiles.remove(path)
    }

    /// Forgets the record (after something rewrote the whole index, for example `reset --hard`).
    static func forget(_ repository: GitRepository) throws(EntitlementError) {
        try GitFiles.remove(stalePath(repository))
    }

    static let hookMarker = "# entitlement: brings git's index up to date"

    /// The hook script: under the store lock, `git update-index` for the recorded paths.
    /// The tool's own git runs set ENTITLEMENT_GIT and skip it (they hold the lock already).
    static let hookScript = """
        #!/bin/sh
        \(hookMarker) with the tool's own commits
        # (docs/team-store.md, "Git's index"). Installed by 'entitlement init --git' and 'entitlement clone'.
        [ -n "${ENTITLEMENT_GIT:-}" ] && exit 0
        case "${0##*/}" in
            reference-transaction) [ "${1:-}" = committed ] || exit 0; cat >/dev/null ;;
        esac
        stale="$(git rev-parse --git-dir)/entitlement/index-stale"
        [ -s "$stale" ] || exit 0
        lock="$(git rev-parse --show-toplevel)/.lock"
        exec flock -w 60 "$lock" sh -c '[ ! -s "$1" ] || { git update-index -q --add --remove -z --stdin < "$1" && rm -f "$1"; }' sh "$stale"

        """

    /// Installs the hooks, leaving alone any hook of the same name that is not the tool's.
    static func installHooks(_ repository: GitRepository) throws(EntitlementError) {
        try GitHooks.install(hookScript, marker: hookMarker, as: ["reference-transaction", "pre-commit"], in: repository)
    }
}
