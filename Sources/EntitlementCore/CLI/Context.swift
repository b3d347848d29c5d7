import FoundationEssentials

/// Everything a command may touch outside itself: streams, environment, clock, new ids.
///
/// Passed in, never global, so tests run commands in-process with a fixed clock.
public struct Context: Sendable {
    public var environment: [String: String]
    public var stdout: OutputSink
    public var stderr: OutputSink
    public var stdin: InputSource
    /// The real time for mutations and the default `--at`; tests pass a fixed one.
    public var now: @Sendable () -> Date
    /// A new unique id (lower-case UUID text) for profiles and grants; tests pass a
    /// sequence, so the output of grant, revoke and import can be golden files.
    public var newID: @Sendable () -> String
    /// The login name, the last fallback for `--actor`; looked up only when needed
    /// (it reads the user database, a cost `check` should not pay).
    public var loginName: @Sendable () -> String?
    /// Where commands leave large values to be freed by the process exit (see `ExitArena`).
    public var arena: ExitArena

    public init(environment: [String: String], stdout: OutputSink, stderr: OutputSink, stdin: InputSource,
                now: @escaping @Sendable () -> Date, newID: @escaping @Sendable () -> String = Context.randomID,
                loginName: @autoclosure @escaping @Sendable () -> String?, arena: ExitArena = ExitArena()) {
        self.environment = environment
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.now = now
        self.newID = newID
        self.loginName = loginName
        self.arena = arena
    }

    /// A random (version 4) UUID in lower case: the real id generator.
    public static let randomID: @Sendable () -> String = { UUID().uuidString.lowercased() }

    /// Colour only on a terminal, and never with NO_COLOR or TERM=dumb.
    public var useColor: Bool {
        stdout.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The store named by `--store`, then `$ENTITLEMENT_STORE`, then the XDG default.
    func store(flag: String?, lockTimeout: Double = EntitlementStore.defaultLockTimeout) -> EntitlementStore {
        EntitlementStore(root: StoreLocation.resolve(flag: flag, environment: environment), lockTimeout: lockTimeout)
    }
}
