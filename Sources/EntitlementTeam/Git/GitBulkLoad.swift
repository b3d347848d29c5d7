import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// The first commit of a store that is not yet in git, as one bulk load: every file streamed
/// through one `git fast-import` into one pack, then the index read from that tree.
///
/// `git add --all` writes one compressed loose object per file, each a file create in
/// `.git/objects`: converting the 1M-profile bench store had written 1.2 GB of them after 20
/// minutes. fast-import writes one pack and the trees itself; the index then comes
/// from `read-tree`, with the stat data the load saw (`IndexStatFill`). The commit's author,
/// committer, message, tree and the files committed are what `git add --all` and
/// `git commit` made (the same untracked, not ignored files); no hook runs, as none would have
/// changed them. docs/team-store.md, "Scale".
enum GitBulkLoad {
    /// Commits every untracked, not ignored file of an unborn repository; returns the commit.
    static func commitEverything(_ repository: GitRepository, message: String, author: GitIdentity) throws(EntitlementError) -> String {
        let ref = try repository.check(["symbolic-ref", "HEAD"]).trimmingWhitespace
        let listing = try repository.run(["ls-files", "-z", "--others", "--exclude-standard"])
        guard listing.succeeded else { throw .git(message: "git ls-files failed in \(repository.root): \(GitRepository.firstLines(listing.errorText))", hint: nil) }
        // Split as bytes: tens of megabytes of names at 1M profiles, where splitting a String by
        // Character would cost seconds of grapheme breaking.
        let names = listing.stdout.split(separator: 0)
        let paths = names.map { String(decoding: $0, as: UTF8.self) }
        var loaded = IndexStatFill()
        var authorEnvironment = ["GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email]
        if try repository.userIdentity() == nil {
            authorEnvironment["GIT_COMMITTER_NAME"] = author.name
            authorEnvironment["GIT_COMMITTER_EMAIL"] = author.email
        }
        // `git var` gives each identity as `git commit` would make it, time and zone included.
        let authorLine = try repository.check(["var", "GIT_AUTHOR_IDENT"], extraEnvironment: authorEnvironment).trimmingWhitespace
        let committerLine = try repository.check(["var", "GIT_COMMITTER_IDENT"], extraEnvironment: authorEnvironment).trimmingWhitespace
        let text = message.hasSuffix("\n") ? message : message + "\n"
        let arguments = ["git", "-C", repository.root, "fast-import", "--quiet", "--done", "--date-format=raw"]
        let result = try Subprocess.feeding(arguments, environment: repository.gitEnvironment) { (feed: inout Subprocess.Feed) throws(EntitlementError) in
            feed.write("commit \(ref)\nauthor \(authorLine)\ncommitter \(committerLine)\ndata \(text.utf8.count)\n\(text)\n")
            // On a cold cache the loop waits for one small file at a time; threads reading
            // ahead keep many reads in flight.
            let fullPaths = paths.map { "\(repository.root)/\($0)" }
            let ahead = ReadAhead.start(fullPaths)
            defer { ahead.stop() }
            for (index, path) in paths.enumerated() {
                ahead.reader(at: index)
                let full = fullPaths[index]
                guard let status = try GitFiles.system.status(full), let bytes = try GitFiles.read(full) else {
                    throw .io(path: full, message: "disappeared while the store was converted")
                }
                if status.st_mode & S_IFMT == S_IFREG { loaded.add(Array(names[index]), status) }
                let mode = status.st_mode & 0o100 != 0 ? "100755" : "100644"
                feed.write("M \(mode) inline \(quoted(path))\ndata \(bytes.count)\n")
                feed.write(bytes)
                feed.write([0x0A])
            }
            feed.write("done\n")
        }
        guard let result else { throw .git(message: "cannot run git", hint: "Install git (for example 'apt-get install git'); a git store needs it.") }
        guard result.succeeded else {
            throw .git(message: "git fast-import failed in \(repository.root): \(GitRepository.firstLines(result.errorText))", hint: nil)
        }
        // The index from the new tree (whole, not split yet), with the stat data of the files
        // as they were loaded (`IndexStatFill`), so that `git status` compares by stat and prints
        // nothing; then split, as a team store's index is. Should the fill not apply, git's
        // `--refresh` fills it by hashing every file again.
        try repository.check(["-c", "core.splitIndex=false", "read-tree", ref])
        let refresh = try loaded.apply(in: repository) ? [] : ["--refresh"]
        try repository.check(["update-index", "-q", "--split-index"] + refresh)
        return try repository.check(["rev-parse", ref]).trimmingWhitespace
    }

    /// `path` in fast-import's C-style quotes: any byte may then appear in a name.
    static func quoted(_ path: String) -> String {
        var out: [UInt8] = [0x22]
        for byte in path.utf8 {
            switch byte {
            case 0x22, 0x5C: out += [0x5C, byte]
            case 0x0A: out += Array("\\n".utf8)
            case 0..<0x20, 0x7F: out += Array(("\\" + String(byte, radix: 8).leftPadded(to: 3)).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}
