import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Before a merge (or a clone's checkout), what arrives from the remote is inspected in git's
/// object store: only store files, as plain files (`StoreTreePolicy`); every profile and
/// configuration file one the tool can read; no layout change that leaves the files behind;
/// no customers removed unless the caller allowed it. A refusal names the paths, and nothing
/// reaches the working tree.
package struct IncomingCheck {
    let store: EntitlementStore
    let repository: GitRepository
    /// `sync --allow-deletions`: a push that removes customers' profiles may merge.
    var allowDeletions = false

    package init(store: EntitlementStore, repository: GitRepository, allowDeletions: Bool = false) {
        self.store = store
        self.repository = repository
        self.allowDeletions = allowDeletions
    }

    /// What arrives, for sync's report.
    package struct Summary: Equatable {
        /// Profile files removed by the incoming side (customers gone, not moved).
        var removedProfiles: [String] = []
        /// Profile files the incoming side added (for the kept name list, `ProfileNameIndex`).
        var addedProfiles: [String] = []
        /// How many paths the incoming side changed since the merge base.
        var changedPaths = 0
    }

    /// Checks what `ref` brings since its merge base with `head` (its whole tree without `head`,
    /// as for a clone). Without `contents`, only paths and modes (a clone: readers check files).
    @discardableResult
    package func verify(_ ref: String, head: String? = "HEAD", contents: Bool = true) throws(EntitlementError) -> Summary {
        let shownRef = ref.split(separator: "/").suffix(2).joined(separator: "/")
        let tree = try IncomingTree.changes(in: repository, head: head, ref: ref)
        try StoreTreePolicy.check(tree, source: "the remote's \(shownRef)")
        if let head {
            // Also against HEAD itself: with several merge bases (criss-cross histories) git may
            // merge from another one, but nothing can arrive that is not in this difference.
            try StoreTreePolicy.check(try IncomingTree.between(head, ref, in: repository), source: "the remote's \(shownRef)")
        }
        guard contents else { return Summary() }
        // Every file of the committed layout that arrives is one the tool can read (profiles and
        // config.json by their readers, records and index entries by `StoreFileKind`'s rule).
        let changed = tree.entries.filter { !$0.isDeletion }.map(\.path).filter { StoreFileKind.kind(of: $0) != nil }
        let objects = try read(changed, at: ref)
        var named: [(path: String, userID: String)] = []
        for (path, object) in zip(changed, objects) {
            guard let object, let kind = StoreFileKind.kind(of: path) else { continue }
            switch kind {
            case .configuration, .profile:
                try Self.validate(path: path, content: object.content, shown: "\(shownRef):\(path)")
                if path == EntitlementStore.configFileName, head != nil { try checkLayout(object.content, ref: ref, shown: shownRef) }
            default:
                if let problem = kind.problem(with: object.content, at: path) { throw Self.unreadable("\(shownRef):\(path): \(problem)") }
                if kind == .aliasIndexEntry || kind == .appStoreCustomerIndexEntry { named.append((path, String(decoding: object.content, as: UTF8.self))) }
            }
        }
        try requireProfiles(named, at: ref, shown: shownRef)
        let added = tree.entries.filter { $0.status == "A" && StoreFileKind.kind(of: $0.path) == .profile }.map(\.path)
        let summary = Summary(removedProfiles: StoreTreePolicy.removedProfiles(tree), addedProfiles: added, changedPaths: tree.entries.count)
        if !summary.removedProfiles.isEmpty, !allowDeletions, head != nil {
            let count = summary.removedProfiles.count
            throw .git(message: "the remote's \(shownRef) removes \(count) customer profile\(count == 1 ? "" : "s"): \(summary.removedProfiles.prefix(3).joined(separator: ", "))\(count > 3 ? ", …" : "")",
                       hint: "Nothing was merged. If the removal is meant, run 'entitlement sync --allow-deletions'; otherwise restore the files in a clone and push.")
        }
        return summary
    }

    /// The objects at `paths` of `ref`, in order (nil for one git could not find).
    private func read(_ paths: [String], at ref: String) throws(EntitlementError) -> [GitBatchOutput.Object?] {
        guard !paths.isEmpty else { return [] }
        let request = paths.map { "\(ref):\($0)\n" }.joined()
        let result = try repository.run(["cat-file", "--batch"], input: Array(request.utf8))
        guard result.succeeded else { throw .git(message: "cannot read \(ref): \(GitRepository.firstLines(result.errorText))", hint: nil) }
        return GitBatchOutput.parse(result.stdout)
    }

    /// Throws unless `content` is a store file the tool reads: config.json, or a profile in the
    /// file its customer id names. Used on what arrives and on a merge's result.
    static func validate(path: String, content: [UInt8], shown: String) throws(EntitlementError) {
        do throws(EntitlementError) {
            if path == EntitlementStore.configFileName {
                let document = try EntitlementStore.parse(content, path: shown)
                do { _ = try ProductConfiguration(json: document) } catch { throw EntitlementStore.fieldError(error, path: shown) }
            } else {
                let profile = try EntitlementStore.decodeProfile(content, path: shown)
                let expected = "\(ProfileFileName.name(for: profile.customerUserID)).json"
                guard PathName.base(of: path) == expected else {
                    throw EntitlementError.invalidFile(path: shown, detail: "misplaced profile: it holds customer_user_id '\(profile.customerUserID)'")
                }
            }
        } catch {
            throw unreadable(error.description)
        }
    }

    static func unreadable(_ description: String) -> EntitlementError {
        .git(message: "the remote has a file this tool cannot read: \(description)",
             hint: "Nothing was merged; your store and commits are unchanged. Fix the file in a clone, push the fix, then sync again.")
    }

    /// An arriving alias or App Store index entry names a customer whose profile `ref` holds
    /// (in either layout): an entry that points nowhere is not the tool's.
    private func requireProfiles(_ entries: [(path: String, userID: String)], at ref: String, shown: String) throws(EntitlementError) {
        guard !entries.isEmpty else { return }
        let request = entries.flatMap { entry in
            ProfileLayout.allCases.map { "\(ref):\(EntitlementStore.profilesDirectory)/\($0.profileFile(for: entry.userID))\n" }
        }.joined()
        let result = try repository.run(["cat-file", "--batch-check"], input: Array(request.utf8))
        guard result.succeeded else { throw .git(message: "cannot read \(ref): \(GitRepository.firstLines(result.errorText))", hint: nil) }
        let found = result.output.split(separator: "\n", omittingEmptySubsequences: false).map { !$0.hasSuffix(" missing") && !$0.isEmpty }
        let perEntry = ProfileLayout.allCases.count
        for (index, entry) in entries.enumerated() where !found[(index * perEntry)..<min(found.count, (index + 1) * perEntry)].contains(true) {
            throw Self.unreadable("\(shown):\(entry.path): points nowhere: no profile of '\(Terminal.escape(entry.userID))'")
        }
    }

    /// A `profile_layout` change must come with the files moved (as `migrate` commits it):
    /// otherwise every customer would be looked for where their file is not.
    private func checkLayout(_ content: [UInt8], ref: String, shown: String) throws(EntitlementError) {
        guard let incoming = try? ProductConfiguration(json: EntitlementStore.parse(content, path: shown)).profileLayout else { return }
        let current = try store.loadConfiguration().profileLayout
        guard incoming != current else { return }
        let depth = incoming == .flat ? 2 : 4
        let listing = try repository.check(["ls-tree", "-r", "-z", "--name-only", ref, "--", EntitlementStore.profilesDirectory])
        let misplaced = listing.split(separator: "\0").first { $0.split(separator: "/").count != depth }
        guard let misplaced else { return }
        throw .git(message: "the remote's \(shown):config.json changes profile_layout from \(current.rawValue) to \(incoming.rawValue) but leaves the profiles where they were (for example \(misplaced))",
                   hint: "Nothing was merged. Put \"profile_layout\": \"\(current.rawValue)\" back in config.json in a clone and push; to change the layout, run 'entitlement migrate --layout \(incoming.rawValue)', which moves the files in the same commit.")
    }
}
