/// Every failure the tool reports: a one-line message, an optional hint, and an exit code.
public enum EntitlementError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Bad command line. `command` names the command whose usage applies.
    case usage(String, hint: String? = nil, command: String? = nil)
    /// No profile for this user id.
    case unknownUser(String)
    /// `check --strict` on an entitlement the configuration does not have.
    case unknownEntitlement(String, suggestion: String?)
    /// A transaction, index entry or other named thing that is not there.
    case notFound(String)
    /// No store at this path.
    case storeMissing(path: String)
    /// `init` on a directory that already holds a store.
    case storeExists(path: String)
    /// A file that cannot be used: unparseable, wrong field, misplaced. Never rewritten.
    case invalidFile(path: String, detail: String)
    /// A file of a newer schema_version. Never rewritten.
    case newerSchema(path: String, version: String)
    /// An `import` document that breaks its vendor's format: malformed JSON, a wrong type,
    /// a missing field. `detail` starts with the field path. Nothing from it is written.
    case invalidImport(file: String, detail: String)
    /// An operating-system error on a path.
    case io(path: String, message: String)
    /// The writer lock was not acquired within the timeout.
    case busy(path: String, seconds: Double)
    /// A git operation of a team store failed; the message names the file or step.
    case git(message: String, hint: String?)
    /// `sync` or `clone` could not reach the remote; local commits are kept.
    case remoteUnavailable(remote: String, detail: String)
    /// A merge of two versions of a store file that would need a person to decide. Nothing was written.
    case cannotMerge(path: String, conflicts: [String])

    public var exitCode: ExitCode {
        switch self {
        case .usage: return .usage
        case .unknownUser, .unknownEntitlement, .notFound: return .notFound
        case .storeMissing, .storeExists, .invalidFile, .newerSchema, .invalidImport, .io, .cannotMerge: return .dataError
        case .busy: return .busy
        case .git: return .dataError
        case .remoteUnavailable: return .remoteUnavailable
        }
    }

    /// The message, with data escaped for the terminal.
    public var description: String {
        switch self {
        case .usage(let message, _, _): return message
        case .unknownUser(let user): return "no profile for user '\(Terminal.escape(user))'"
        case .unknownEntitlement(let id, _): return "entitlement '\(Terminal.escape(id))' is not in the product configuration"
        case .notFound(let message): return message
        case .storeMissing(let path): return "no store at \(Terminal.escape(path))"
        case .storeExists(let path): return "a store already exists at \(Terminal.escape(path)); init never overwrites one"
        case .invalidFile(let path, let detail): return "\(Terminal.escape(path)): \(Terminal.escape(detail))"
        case .newerSchema(let path, let detail): return "\(Terminal.escape(path)): \(Terminal.escape(detail))"
        case .invalidImport(let file, let detail): return "\(Terminal.escape(file)): \(Terminal.escape(detail))"
        case .io(let path, let message): return "\(Terminal.escape(path)): \(Terminal.escape(message))"
        case .cannotMerge(let path, let conflicts):
            return "\(Terminal.escape(path)): cannot merge " + conflicts.map(Terminal.escape).joined(separator: "\n  ")
        case .busy(let path, let seconds):
            return "store is busy: could not lock \(Terminal.escape(path)) within \(describeSeconds(seconds))"
        case .git(let message, _): return Terminal.escape(message)
        case .remoteUnavailable(let remote, let detail): return "cannot reach the remote '\(Terminal.escape(remote))': \(Terminal.escape(detail))"
        }
    }

    /// What to do next, where that helps.
    public var hint: String? {
        switch self {
        case .usage(_, let hint, _): return hint
        case .unknownUser: return "Check the id, or look it up with --profile-id."
        case .unknownEntitlement(_, let suggestion):
            return suggestion.map { "Did you mean '\(Terminal.escape($0))'?" } ?? "Add it to config.json, or check the spelling."
        case .storeMissing: return "Create one with 'entitlement init --store DIR', or point --store or $ENTITLEMENT_STORE at an existing store."
        case .invalidFile: return "The tool never rewrites a file it cannot read. Fix it by hand; see docs/store-format.md."
        case .newerSchema: return "The tool never rewrites such a file. Upgrade entitlement to use it."
        case .invalidImport: return "Nothing from this document was imported. It does not match the vendor's documented format; see docs/import.md."
        case .busy: return "Another writer holds the lock. Retry, or raise --lock-timeout / $ENTITLEMENT_LOCK_TIMEOUT."
        case .git(_, let hint): return hint
        case .remoteUnavailable: return "Local commits are kept; run 'entitlement sync' again when the remote is reachable."
        case .cannotMerge: return "Nothing was merged: resolve the file by hand, then 'git add' it. See docs/team-store.md."
        case .notFound, .storeExists, .io: return nil
        }
    }
}

func describeSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
}
