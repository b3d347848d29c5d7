import EntitlementBasics

/// Every failure the tool reports, as a value. Messages, hints, exit codes and machine codes
/// for all of them, domain errors included, live in one place: `EntitlementError+Presentation.swift`.
package enum EntitlementError: Error, Equatable, Sendable {
    /// Bad command line. `command` names the command whose usage applies.
    case usage(String, hint: String? = nil, command: String? = nil)
    /// A command-line argument that is not valid UTF-8 (1-based position, bytes escaped).
    case invalidArgumentEncoding(position: Int, escaped: String)
    /// A customer user id the tool refuses; `command` names the command whose usage applies
    /// (an id from the command line), `file` the import document that named it (an id from
    /// data: the message starts with `FILE: ` and no usage line follows).
    case invalidUserID(UserID.Problem, command: String? = nil, file: String? = nil)
    /// No profile for this user id; `suggestion` is a stored id close to it, if any
    /// (`EntitlementStore.nearUserID`), for the hint.
    case unknownUser(String, suggestion: String? = nil)
    /// No profile with this `profile_id`.
    case unknownProfileID(String)
    /// An entitlement named on the command line that neither the configuration nor the profile knows.
    case unknownEntitlement(UnknownEntitlement)
    /// A grant the planner refused.
    case grant(GrantError)
    /// A revoke the planner refused.
    case revoke(RevokeError)
    /// A restore the planner refused.
    case restore(RestoreError)
    /// A transfer the planner refused (`entitlement transfer`).
    case transfer(TransferError)
    /// No store at this path.
    case storeMissing(path: String)
    /// `migrate` was interrupted (its marker is there): reads and writes wait until it is run again.
    case migrationInProgress(path: String, layout: String?)
    /// `migrate` found a file where it would move another: it never replaces one.
    case migrationCollision(from: String, to: String)
    /// `init` on a directory that already holds a store.
    case storeExists(path: String)
    /// A file that cannot be used: unparseable, wrong field, misplaced. Never rewritten.
    case invalidFile(path: String, detail: String)
    /// A file of a newer schema_version than this tool supports. Never rewritten.
    case newerSchema(path: String, version: Int)
    /// An `import` document that breaks its vendor's format: malformed JSON, a wrong type,
    /// a missing field. `detail` starts with the field path. Nothing from it is written.
    case invalidImport(file: String, detail: String)
    /// Signed vendor data that failed verification; `detail` names the field path and the
    /// check (docs/security.md). Nothing from the document is written.
    case untrustedSignedData(file: String, detail: String)
    /// An operating-system error on a path.
    case io(path: String, message: String)
    /// The writer lock was not acquired within the timeout.
    case busy(path: String, seconds: Double)
    /// A git operation of a team store failed; the message names the file or step.
    case git(message: String, hint: String?)
    /// `sync` or `clone` could not reach the remote; local commits are kept.
    case remoteUnavailable(remote: String, detail: String)
    /// `clone` could not fetch the store; nothing was made, so there are no local commits to keep.
    case cloneFailed(url: String, detail: String)
    /// Two versions of a store file that a person must reconcile. Nothing was written.
    case cannotMerge(path: String, conflicts: [String])
}

/// An entitlement id that is not configured, with what is known instead (for "Did you mean").
package struct UnknownEntitlement: Equatable, Sendable {
    package var id: String
    /// The entitlements that are known where it was looked up.
    package var known: [String]
    /// The configuration file to add it to.
    package var configPath: String?

    package init(_ id: String, known: [String], configPath: String? = nil) {
        self.id = id
        self.known = known
        self.configPath = configPath
    }

    var suggestion: String? { Suggestion.closest(to: id, in: known) }
}
