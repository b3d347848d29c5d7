import EntitlementBasics
import EntitlementModel

/// Git's index in a team store, kept up to date lazily.
///
/// The tool's commits are made by plumbing and never touch `.git/index`: rewriting that file
/// costs most of a second at 100k profiles (git reads and rewrites all of it to change two
/// entries). Instead each commit appends the paths it changed to `.git/entitlement/index-stale`
/// (NUL-separated, before the commit's ref moves), and the index catches up with them in one
/// `git update-index`: at the start of `sync`, and through two hooks `init --git` and `clone`
/// install for people who use git directly (`reference-transaction`, so `git pull` refreshes
/// after its fetch; `pre-commit`, so `git commit` never commits old versions). See
/// docs/team-store.md, "Git's index".
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
        let directory = "\(repository.gitDirectory)/hooks"
        try GitFiles.makeDirectory(directory)
        for name in ["reference-transaction", "pre-commit"] {
            let path = "\(directory)/\(name)"
            if let existing = try GitFiles.read(path), !String(decoding: existing, as: UTF8.self).contains(hookMarker) { continue }
            try GitFiles.writeAtomically(Array(hookScript.utf8), to: path)
            try GitFiles.makeExecutable(path)
        }
    }
}
