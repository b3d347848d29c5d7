/// The process exit codes, in the style of `grep`. Scripts depend on these.
package enum ExitCode: Int32, CaseIterable, Sendable {
    /// Success; for `check`, entitled.
    case success = 0
    /// `check`: not entitled.
    case notEntitled = 1
    /// Usage error: unknown command or option, bad value, bad date.
    case usage = 2
    /// Not found: an unknown user, profile, transaction or entitlement (check: only with --strict).
    case notFound = 3
    /// Store or data error: store missing, unreadable, corrupt, or of a newer schema.
    case dataError = 4
    /// Store busy: the writer lock was not acquired in time.
    case busy = 5
    /// Team store: the git remote could not be reached (`sync`, `clone`); local work is kept.
    case remoteUnavailable = 6
    /// Standard output was closed by its reader (`entitlement find | head`): the run stopped
    /// quietly with 128 + SIGPIPE, the status a shell reports for a program that SIGPIPE killed.
    case outputClosed = 141

    /// The worse of two codes, for commands that answer many items (`check --stdin`, `import`):
    /// the highest number wins, so 5 busy > 4 data > 3 not found > 2 usage > 1 no > 0 yes.
    package static func worst(_ a: ExitCode, _ b: ExitCode) -> ExitCode { a.rawValue >= b.rawValue ? a : b }

    /// One line for the exit-code tables in help and README.
    package var meaning: String {
        switch self {
        case .success: return "success; check: entitled; find: found; verify: clean"
        case .notEntitled: return "no: check: not entitled; find: nothing matched; revoke, transfer: declined"
        case .usage: return "usage error: unknown command or option, bad value, bad date"
        case .notFound: return "not found: unknown user, profile, transaction or entitlement (check: only with --strict)"
        case .dataError: return "store or data error: store missing, unreadable, corrupt, or of a newer schema; verify: problems found"
        case .busy: return "store busy: lock not acquired in time"
        case .remoteUnavailable: return "remote unreachable (sync, clone): local commits are kept; retry later"
        case .outputClosed: return "standard output was closed by its reader (as `| head` does): stopped quietly, as SIGPIPE would"
        }
    }
}
