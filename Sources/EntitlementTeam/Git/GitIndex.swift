import EntitlementBasics
import EntitlementModel

/// Git's index in a team store: current after every commit in a store of up to about 15,000
/// profiles, kept up to date lazily above that.
///
/// The tool's commits are made by plumbing. Each commit appends the paths it changed to
/// `.git/entitlement/index-stale` (NUL-separated, before the commit's ref moves); in a small
/// store one `git update-index` of those paths follows at once (`isQuickToRewrite`), so
/// `git status` is clean after the command. In a big store rewriting the index costs most of
/// a second (git reads and rewrites all of it to change two entries), so the index catches up
/// at the start of `sync`, and through two hooks `init --git` and `clone` install for people
/// who use git directly (`reference-transaction`, so `git pull` refreshes after its fetch;
/// `pre-commit`, so `git commit` never commits old versions). See docs/team-store.md, "Git's index".
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
    static func refresh(_ repository: GitRepository) throws(EntitlementError) {
        let path = stalePath(repository)
        guard let bytes = try GitFiles.read(path) else { return }
        if !bytes.isEmpty {
            try repository.check(["update-index", "-q", "--add", "--remove", "-z", "--stdin"], input: bytes)
        }
        try GitFiles.remove(path)
    }

    /// The largest `.git/index` brought current after every commit (about 15,000 profiles with
    /// their index entries). Git reads and rewrites the whole file to change two entries: at
    /// 100k profiles (27 MB) that took 0.6-1 s, and 0.4 s with a split index, on git 2.39
    /// (docs/performance.md, "Team store"), far over a grant's 50 ms; below this size it is a
    /// few milliseconds.
    static let eagerRefreshLimit = 4 << 20

    /// True when `.git/index` is small enough to rewrite after every commit (or missing).
    static func isQuickToRewrite(_ repository: GitRepository) -> Bool {
        guard let status = try? GitFiles.system.status("\(repository.gitDirectory)/index") else { return true }
        return Int(status.st_size) <= eagerRefreshLimit
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
