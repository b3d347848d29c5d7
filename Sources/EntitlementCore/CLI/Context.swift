import FoundationEssentials

/// Everything a command may touch outside itself: streams, environment, clock.
///
/// Passed in, never global, so tests run commands in-process with a fixed clock.
public struct Context: Sendable {
    public var environment: [String: String]
    public var stdout: OutputStream
    public var stderr: OutputStream
    public var stdin: InputStream
    /// The real time for mutations and the default `--at`; tests pass a fixed one.
    public var now: @Sendable () -> Date
    /// The login name, the last fallback for `--actor`; looked up only when needed
    /// (it reads the user database, a cost `check` should not pay).
    public var loginName: @Sendable () -> String?
    /// Where commands leave large values to be freed by the process exit (see `ExitArena`).
    public var arena: ExitArena
    /// New ids (transactions, profiles); tests pass a deterministic generator.
    public var newID: @Sendable () -> String

    public init(environment: [String: String], stdout: OutputStream, stderr: OutputStream, stdin: InputStream,
                now: @escaping @Sendable () -> Date, loginName: @autoclosure @escaping @Sendable () -> String?,
                arena: ExitArena = ExitArena(), newID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.environment = environment
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.now = now
        self.loginName = loginName
        self.arena = arena
        self.newID = newID
    }

    /// A person can answer a question: standard input and standard error are terminals.
    public var isInteractive: Bool { stdin.isTerminal && stderr.isTerminal }

    /// Asks `question` on stderr and reads the answer from stdin: true only for y or yes.
    func confirm(_ question: String) -> Bool {
        stderr.write(question + " [y/N] ")
        stderr.flush()
        let answer = stdin.readLine()?.trimmingWhitespace.lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }

    /// Colour only on a terminal, and never with NO_COLOR or TERM=dumb.
    public var useColor: Bool {
        stdout.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The store named by `--store`, then `$ENTITLEMENT_STORE`, then the XDG default.
    func store(flag: String?, lockTimeout: Double? = nil) -> EntitlementStore {
        EntitlementStore(root: StoreLocation.resolve(flag: flag, environment: environment),
                         lockTimeout: lockTimeout ?? EntitlementStore.defaultLockTimeout)
    }
}
