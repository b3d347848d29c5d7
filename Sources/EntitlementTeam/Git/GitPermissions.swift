import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// A team store is as private as a plain one: 0700 folders and 0600 files, `.git` included,
/// whatever the umask of whoever runs git in it (docs/team-store.md, "Security").
///
/// The tool's own git runs under umask 077 (`Subprocess`); git's files in `.git` follow
/// `core.sharedRepository=0600` (`GitSetup`); and for a person's plain `git pull` or
/// `git checkout` under a loose umask, hooks take group and other permissions off every file
/// the working tree holds.
package enum GitPermissions {
    static let hookMarker = "# entitlement: keeps the store's files private"

    /// `post-merge`, `post-checkout` and `post-rewrite`: `chmod go-rwx` below the store, `.git` aside.
    static let hookScript = """
        #!/bin/sh
        \(hookMarker) after a plain git pull or checkout
        # (docs/team-store.md, "Security"). Installed by 'entitlement init --git' and 'entitlement clone'.
        [ -n "${ENTITLEMENT_GIT:-}" ] && exit 0
        top="$(git rev-parse --show-toplevel)" || exit 0
        find "$top" -path "$top/.git" -prune -o ! -type l -perm /077 -exec chmod go-rwx {} + 2>/dev/null
        exit 0

        """

    static func installHooks(_ repository: GitRepository) throws(EntitlementError) {
        try GitHooks.install(hookScript, marker: hookMarker, as: ["post-merge", "post-checkout", "post-rewrite"], in: repository)
    }

    /// A cloned store's folder is 0700 like a new plain store's (git made it under umask 077;
    /// an empty folder the user made beforehand is tightened too).
    package static func makeStoreRootPrivate(_ root: String) throws(EntitlementError) {
        do {
            try systemCall("chmod") { GitFiles.system.chmod(root, 0o700) }
        } catch {
            throw .io(path: root, message: "cannot make private: \(error.message)")
        }
    }

    /// `.git` 0700, its `config` 0600 and `hooks/` 0700, whatever made them.
    static func makePrivate(_ repository: GitRepository) throws(EntitlementError) {
        let git = repository.gitDirectory
        for (path, mode) in [(git, mode_t(0o700)), ("\(git)/hooks", 0o700), ("\(git)/config", 0o600)] where GitFiles.exists(path) {
            do {
                try systemCall("chmod") { GitFiles.system.chmod(path, mode) }
            } catch {
                throw .io(path: path, message: "cannot make private: \(error.message)")
            }
        }
    }
}
