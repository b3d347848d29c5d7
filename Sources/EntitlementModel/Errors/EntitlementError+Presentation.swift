import EntitlementBasics

/// The one place errors become text, exit codes and machine codes.
extension EntitlementError: CustomStringConvertible {
    /// The stable machine name of the error (for scripts and JSON error output).
    package var code: String {
        switch self {
        case .usage: return "usage"
        case .invalidArgumentEncoding: return "invalid_encoding"
        case .invalidUserID: return "invalid_user_id"
        case .unknownUser: return "unknown_user"
        case .unknownProfileID: return "unknown_profile"
        case .unknownEntitlement: return "unknown_entitlement"
        case .grant(let error): return error.code
        case .revoke(let error): return error.code
        case .restore(let error): return error.code
        case .transfer(let error): return error.code
        case .storeMissing: return "store_not_found"
        case .migrationInProgress: return "migration_in_progress"
        case .migrationCollision: return "migration_collision"
        case .storeExists: return "store_exists"
        case .invalidFile: return "invalid_file"
        case .newerSchema: return "newer_schema"
        case .invalidImport: return "invalid_import"
        case .untrustedSignedData: return "untrusted_signed_data"
        case .io: return "io_error"
        case .busy: return "lock_timeout"
        case .git: return "git_error"
        case .remoteUnavailable, .cloneFailed: return "remote_unavailable"
        case .cannotMerge: return "merge_conflict"
        }
    }

    package var exitCode: ExitCode {
        switch self {
        case .usage, .invalidArgumentEncoding, .invalidUserID: return .usage
        case .unknownUser, .unknownProfileID, .unknownEntitlement: return .notFound
        case .grant: return .usage
        case .revoke(let error): return error.exitCode
        case .restore: return .usage
        case .transfer(let error): return error.exitCode
        case .storeMissing, .storeExists, .invalidFile, .newerSchema, .invalidImport, .untrustedSignedData, .io, .git, .cannotMerge: return .dataError
        case .migrationInProgress, .migrationCollision: return .dataError
        case .busy: return .busy
        case .remoteUnavailable, .cloneFailed: return .remoteUnavailable
        }
    }

    /// The message, with data escaped for the terminal.
    package var description: String {
        switch self {
        case .usage(let message, _, _): return message
        case .invalidArgumentEncoding(let position, let escaped): return "argument \(position) is not valid UTF-8: '\(escaped)'."
        case .invalidUserID(let problem, _, let file): return (file.map { "\(Terminal.escape($0)): " } ?? "") + problem.message + "."
        case .unknownUser(let user, _): return "no profile for user '\(Terminal.escape(user))'"
        case .unknownProfileID(let id): return "no profile with profile_id '\(Terminal.escape(id))'"
        case .unknownEntitlement(let unknown): return "entitlement '\(Terminal.escape(unknown.id))' is not in the product configuration"
        case .grant(let error): return error.message
        case .revoke(let error): return error.message
        case .restore(let error): return error.message
        case .transfer(let error): return error.message
        case .storeMissing(let path): return "no store at \(Terminal.escape(path))"
        case .migrationInProgress(let path, let layout):
            return "store \(Terminal.escape(path)): a migration\(layout.map { " to the \(Terminal.escape($0)) layout" } ?? "") was interrupted; its profiles are half moved"
        case .migrationCollision(let from, let to):
            return "\(Terminal.escape(from)): cannot move to \(Terminal.escape(to)): a file is already there; nothing was replaced"
        case .storeExists(let path): return "a store already exists at \(Terminal.escape(path)); init never overwrites one"
        case .invalidFile(let path, let detail): return "\(Terminal.escape(path)): \(Terminal.escape(detail))"
        case .newerSchema(let path, let version):
            return "\(Terminal.escape(path)): \(SchemaVersion.newerMessage(version))"
        case .invalidImport(let file, let detail): return "\(Terminal.escape(file)): \(Terminal.escape(detail))"
        case .untrustedSignedData(let file, let detail): return "\(Terminal.escape(file)): \(Terminal.escape(detail))"
        case .io(let path, let message): return "\(Terminal.escape(path)): \(Terminal.escape(message))"
        case .busy(let path, let seconds):
            return "store is busy: could not lock \(Terminal.escape(path)) within \(formatSeconds(seconds)) s"
        case .git(let message, _): return Terminal.escape(message)
        case .remoteUnavailable(let remote, let detail): return "cannot reach the remote '\(Terminal.escape(remote))': \(Terminal.escape(detail))"
        case .cloneFailed(let url, let detail): return "cannot clone '\(Terminal.escape(url))': \(Terminal.escape(detail))"
        case .cannotMerge(let path, let conflicts):
            return "\(Terminal.escape(path)): cannot merge " + conflicts.map(Terminal.escape).joined(separator: "\n  ")
        }
    }

    /// What to do next, where that helps.
    package var hint: String? {
        switch self {
        case .usage(_, let hint, _): return hint
        case .invalidArgumentEncoding: return "Arguments, user ids included, must be UTF-8 text."
        case .invalidUserID(let problem, _, _): return problem.hint
        case .unknownUser(_, let suggestion):
            return suggestion.map { "Did you mean '\(Terminal.escape($0))'?" } ?? "Check the id, or look it up with --profile-id."
        case .unknownProfileID: return nil
        case .unknownEntitlement(let unknown):
            var hint = unknown.suggestion.map { "Did you mean '\(Terminal.escape($0))'? " } ?? ""
            hint += unknown.known.isEmpty ? "Nothing is configured yet." : "Configured: \(unknown.known.map(Terminal.escape).joined(separator: ", "))."
            return hint + " Add new ones to \(unknown.configPath.map(Terminal.escape) ?? "config.json")."
        case .grant(let error): return error.hint
        case .revoke: return nil
        case .restore(let error): return error.hint
        case .transfer(.unknownTransaction): return "See the transactions with 'entitlement history FROM'."
        case .transfer: return nil
        case .migrationInProgress(_, let layout):
            return "Finish it first: run 'entitlement migrate --layout \(layout.map(Terminal.escape) ?? "LAYOUT")' again. Nothing else reads or writes profiles until then."
        case .migrationCollision:
            return "Two files hold profiles for one name. Keep or merge them by hand (docs/store-format.md), remove the other, then run migrate again."
        case .storeMissing: return "Create one with 'entitlement init --store DIR', or point --store or $ENTITLEMENT_STORE at an existing store."
        case .invalidFile: return "The tool never rewrites a file it cannot read. Fix it by hand; see docs/store-format.md."
        case .newerSchema: return "The tool never rewrites such a file. Upgrade entitlement to use it."
        case .invalidImport: return "Nothing from this document was imported. It does not match the vendor's documented format; see docs/import.md."
        case .untrustedSignedData:
            return "Nothing from this document was imported: its signed data failed verification (docs/security.md). "
                + "Apple's test data needs --trust-root; data verified elsewhere can be imported with --no-verify."
        case .busy: return "Another writer holds the lock. Retry, or raise --lock-timeout / $ENTITLEMENT_LOCK_TIMEOUT."
        case .git(_, let hint): return hint
        case .remoteUnavailable: return "Local commits are kept; run 'entitlement sync' again when the remote is reachable."
        case .cloneFailed: return "Nothing was cloned. Check the URL and your access to it, then run 'entitlement clone' again."
        case .cannotMerge: return "Nothing was merged: resolve the file by hand, then 'git add' it. See docs/team-store.md."
        case .storeExists, .io: return nil
        }
    }

    /// The command whose usage line follows the message, when the error names one.
    package var usageCommand: String? {
        switch self {
        case .usage(_, _, let command), .invalidUserID(_, let command, _): return command
        default: return nil
        }
    }

    /// Whether the usage line of the running command follows the message (a refused request).
    package var showsUsage: Bool {
        switch self {
        case .grant: return true
        case .revoke(let error): return error.exitCode == .usage
        case .restore: return false
        case .transfer(let error): return error.exitCode == .usage
        default: return false
        }
    }
}

extension UnknownEntitlement {
    /// The note plain `check` (and `check --stdin`) prints before answering exit 1 (`Context.note`).
    package var note: String {
        let suggestion = self.suggestion.map { " Did you mean '\(Terminal.escape($0))'?" } ?? ""
        return "entitlement '\(Terminal.escape(id))' is not in the product configuration.\(suggestion)"
    }
}

extension GrantError {
    var code: String {
        switch self {
        case .idempotencyKeyReused: return "idempotency_conflict"
        case .startsInPast, .endsAfterLatestDate, .endsBeforeStart: return "invalid_grant_period"
        case .newUserID: return "invalid_user_id"
        }
    }

    var message: String {
        switch self {
        case .idempotencyKeyReused(let key, let usedFor, let requested):
            return "idempotency key '\(Terminal.escape(key))' was already used for '\(Terminal.escape(usedFor))', not '\(Terminal.escape(requested))'."
        case .startsInPast(let start): return "--starts \(ISODate.format(start)) is in the past; grants cannot be backdated."
        case .endsAfterLatestDate(let latest): return "the grant would end after \(ISODate.format(latest)); use --lifetime for access that never ends."
        case .endsBeforeStart(let end, let start): return "the grant would end (\(ISODate.format(end))) before it starts (\(ISODate.format(start)))."
        case .newUserID(let problem): return problem.message + "."
        }
    }

    var hint: String? {
        switch self {
        case .idempotencyKeyReused: return "Use a new key for a different grant."
        case .newUserID(let problem): return problem.hint
        default: return nil
        }
    }
}

extension RevokeError {
    var code: String {
        switch self {
        case .transactionNotFound: return "unknown_transaction"
        case .transactionDoesNotGrant: return "transaction_mismatch"
        case .storePurchaseNeedsIncludeStore: return "store_purchase"
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .transactionNotFound: return .notFound
        case .transactionDoesNotGrant, .storePurchaseNeedsIncludeStore: return .usage
        }
    }

    var message: String {
        switch self {
        case .transactionNotFound(let id, let user):
            return "no transaction '\(Terminal.escape(id))' in the profile of '\(Terminal.escape(user))'"
        case .transactionDoesNotGrant(let id, let entitlement):
            return "transaction '\(Terminal.escape(id))' does not give '\(Terminal.escape(entitlement))'."
        case .storePurchaseNeedsIncludeStore(let id, let store):
            return "transaction '\(Terminal.escape(id))' is a store purchase (\(Terminal.escape(store))); add --include-store to revoke a store purchase."
        }
    }
}
