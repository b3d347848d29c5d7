import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `entitlement merge-driver BASE OURS THEIRS PATH`: git's merge driver for store files.
///
/// Plumbing, not listed in the main help: git runs it for the files `.gitattributes`
/// assigns to `merge=entitlement` (docs/team-store.md). It merges profiles and
/// `config.json` semantically and writes the result over OURS; when it cannot, it
/// writes nothing, says why on stderr and exits non-zero, so git marks the file conflicted.
struct MergeDriverCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "merge-driver",
        abstract: "Merge two versions of a store file (git's merge driver; plumbing).",
        discussion: """
        Git runs this for files marked 'merge=entitlement' in .gitattributes, configured with
          git config merge.entitlement.driver 'entitlement merge-driver %O %A %B %P'
        It writes the merged file over OURS and exits 0, or writes nothing and exits 4
        with the file and field it could not merge. The rules are in docs/team-store.md.
        """,
        arguments: [
            ArgumentSpec("BASE", kind: .file, help: "The common ancestor (git's %O); empty when there is none."),
            ArgumentSpec("OURS", kind: .file, help: "Our version (git's %A); replaced by the merged file."),
            ArgumentSpec("THEIRS", kind: .file, help: "Their version (git's %B)."),
            ArgumentSpec("PATH", kind: .file, optional: true, help: "The file's path in the store (git's %P), for messages and to tell profiles from config.json."),
        ],
        options: [])

    var base: String
    var ours: String
    var theirs: String
    var path: String?

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        base = parsed.positionals[0]
        ours = parsed.positionals[1]
        theirs = parsed.positionals[2]
        path = parsed.positionals.count > 3 ? parsed.positionals[3] : nil
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let name = path ?? ours
        guard let ourBytes = try GitFiles.read(ours) else { throw .io(path: ours, message: "no such file") }
        guard let theirBytes = try GitFiles.read(theirs) else { throw .io(path: theirs, message: "no such file") }
        let baseBytes = try GitFiles.read(base)
        let merged: [UInt8], reviews: [MergeReview]
        do {
            (merged, reviews) = try StoreFileMerge.mergeReviewed(path: name, base: baseBytes, ours: ourBytes, theirs: theirBytes,
                                                                 stamp: stamp(context), storeConfiguration: Self.storeConfiguration())
        } catch {
            throw error.entitlementError(file: name)
        }
        if merged != ourBytes { try GitFiles.writeAtomically(merged, to: ours) }
        // For `sync`, which prints them; and on standard error, which a plain `git pull` shows.
        try MergeReviewLog.append(reviews, gitDirectory: context.environment["GIT_DIR"] ?? ".git")
        for review in reviews { context.stderr.write("entitlement: " + MergeReviewLog.line(review)) }
        return .success
    }

    /// The store's configuration: git runs the driver at the top of the work tree, the store's root.
    static func storeConfiguration() -> ProductConfiguration? {
        guard let bytes = try? GitFiles.read(EntitlementStore.configFileName), let json = try? JSONParser.parse(bytes) else { return nil }
        return try? ProductConfiguration(json: json)
    }

    /// The person who merges: `$ENTITLEMENT_ACTOR`, else the identity `sync` passes
    /// (`$ENTITLEMENT_MERGE_ACTOR`), else the repository's git user (git runs the driver in
    /// the work tree, so a plain `git pull` names its user), else "entitlement merge". The
    /// time comes from the sides (`MergeStamp.knownAt`), never from the clock.
    func stamp(_ context: Context) -> MergeStamp {
        let environment = context.environment
        return MergeStamp(at: nil) {
            for name in ["ENTITLEMENT_ACTOR", MergeStamp.actorVariable] {
                if let actor = environment[name], !actor.trimmingWhitespace.isEmpty { return actor }
            }
            let repository = GitRepository(root: ".", environment: environment)
            if let identity = try? repository.userIdentity() { return identity.description }
            return "entitlement merge"
        }
    }
}

extension MergeFailure {
    /// The user-facing error for the file at `file` (its path in the store).
    func entitlementError(file: String) -> EntitlementError {
        switch self {
        case .unreadable(let side, let detail): return .invalidFile(path: "\(file) (\(side.rawValue))", detail: detail)
        case .newerSchema(let side, let version): return .newerSchema(path: "\(file) (\(side.rawValue))", version: version)
        case .conflicts(let conflicts): return .cannotMerge(path: file, conflicts: conflicts.map(\.description))
        case .notAStoreFile: return .cannotMerge(path: file, conflicts: ["neither a profile nor config.json; only store files merge with this driver"])
        }
    }
}
