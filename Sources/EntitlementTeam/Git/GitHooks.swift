import EntitlementModel

/// Git hooks the tool installs in `.git/hooks/` (0700, in a 0700 `.git`: nobody else can
/// change them). A hook of the same name that is not the tool's is left alone.
enum GitHooks {
    /// Writes `script` as each hook of `names`, unless a hook there lacks `marker`.
    static func install(_ script: String, marker: String, as names: [String], in repository: GitRepository) throws(EntitlementError) {
        let directory = "\(repository.gitDirectory)/hooks"
        try GitFiles.makeDirectory(directory)
        for name in names {
            let path = "\(directory)/\(name)"
            if let existing = try GitFiles.read(path), !String(decoding: existing, as: UTF8.self).contains(marker) { continue }
            try GitFiles.writeAtomically(Array(script.utf8), to: path)
            try GitFiles.makeExecutable(path)
        }
    }
}
