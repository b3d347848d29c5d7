/// The process exit codes, in the style of `grep`. Scripts depend on these.
public enum ExitCode: Int32, CaseIterable, Sendable {
    /// Success; for `check`, entitled.
    case success = 0
    /// `check`: not entitled.
    case notEntitled = 1
    /// Usage error: unknown command or option, bad value, bad date.
    case usage = 2
    /// Not found: unknown user (status, history, revoke; check with --strict).
    case notFound = 3
    /// Store or data error: store missing, unreadable, corrupt, or of a newer schema.
    case dataError = 4
    /// Store busy: the writer lock was not acquired in time.
    case busy = 5
    /// Team store: the git remote could not be reached (`sync`, `clone`); local work is kept.
    case remoteUnavailable = 6

    /// One line for the exit-code tables in help and README.
    public var meaning: String {
        switch self {
        case .success: return "success, or check: entitled"
        case .notEntitled: return "check: not entitled"
        case .usage: return "usage error: unknown command or option, bad value, bad date"
        case .notFound: return "not found: unknown user (status, history, revoke; check with --strict)"
        case .dataError: return "store or data error: store missing, unreadable, corrupt, or of a newer schema"
        case .busy: return "store busy: lock not acquired in time"
        case .remoteUnavailable: return "remote unreachable (sync, clone): local commits are kept; retry later"
        }
    }
}
