import FoundationEssentials
import EntitlementBasics
import EntitlementStore

/// Everything a command may touch outside itself: streams, environment, clock, new ids.
///
/// Passed in, never global, so tests run commands in-process with a fixed clock.
package struct Context: Sendable {
    package var environment: [String: String]
    package var stdout: OutputSink
    package var stderr: OutputSink
    package var stdin: InputSource
    /// The real time for mutations and the default `--at`; tests pass a fixed one.
    /// `CLI.run` freezes it to one instant per run.
    package var now: @Sendable () -> Date
    /// The clock as injected, never frozen: for the rare instant that must come after a
    /// wait on a person (`revoke` after its confirmation). Tests inject it with `now`.
    var clock: @Sendable () -> Date
    /// A new unique id (lower-case UUID text) for profiles and grants; tests pass a
    /// sequence, so the output of grant, revoke and import can be golden files.
    package var newID: @Sendable () -> String
    /// The login name, the last fallback for `--actor`; looked up only when needed
    /// (it reads the user database, a cost `check` should not pay).
    package var loginName: @Sendable () -> String?
    /// Where commands leave large values to be freed by the process exit (see `ExitArena`).
    var arena: ExitArena
    /// The width of the terminal standard output is on (ioctl TIOCGWINSZ), else the one
    /// standard error is on (for progress lines), if the size is known; looked up by the
    /// executable, so tests inject any width.
    package var terminalColumns: Int?
    /// The clock and sleep of waits between a vendor API's requests (back-off, `--rate`);
    /// tests pass one that records the waits instead of sleeping.
    package var pacing: Pacing = .real
    /// `--color auto|always|never`, as given (auto when not).
    var color: ColorChoice = .auto
    /// `-q`/`--quiet`: commands print nothing on standard output and no notes.
    var quiet = false
    /// `--json` (or `--output json|jsonl`): errors, notes and warnings on standard error are
    /// JSON objects, one per line (`Context.note`, `Context.warning`).
    var json = false

    package init(environment: [String: String], stdout: OutputSink, stderr: OutputSink, stdin: InputSource,
                now: @escaping @Sendable () -> Date, newID: @escaping @Sendable () -> String = Context.randomID,
                loginName: @autoclosure @escaping @Sendable () -> String?, arena: ExitArena = ExitArena()) {
        self.environment = environment
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.now = now
        self.clock = now
        self.newID = newID
        self.loginName = loginName
        self.arena = arena
    }

    /// A random (version 4) UUID in lower case: the real id generator.
    /// Its bits come from the system generator (`getrandom`): `UUID()` opens and reads
    /// `/dev/urandom` on every call, which a bulk grant of 100,000 ids (two ids each) feels.
    package static let randomID: @Sendable () -> String = {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        // RFC 9562: version 4 in the high nibble of byte 6, variant 0b10 in byte 8.
        let a = high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let b = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        let uuid = UUID(uuid: (byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), byte(a, 6), byte(a, 7),
                               byte(b, 0), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)))
        return uuid.uuidString.lowercased()
    }

    /// `--color always|never` decides; with `auto`, `NO_COLOR` (non-empty) turns colour off,
    /// `CLICOLOR_FORCE` (non-empty, not 0) turns it on, else colour only on a terminal that is not `TERM=dumb`.
    var useColor: Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            if !(environment["NO_COLOR"] ?? "").isEmpty { return false }
            if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            return stdout.isTerminal && environment["TERM"] != "dumb"
        }
    }

    /// The width tables must fit, in terminal cells: nil when standard output is not a
    /// terminal (a pipe is never truncated); else `$COLUMNS`, else the terminal's size, else 80.
    var outputWidth: Int? {
        guard stdout.isTerminal else { return nil }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return terminalColumns ?? 80
    }

    /// The width a progress line on standard error must fit: `$COLUMNS`, else the
    /// terminal's size, else 80. A line that wraps cannot be redrawn in place.
    var statusWidth: Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return terminalColumns ?? 80
    }

    /// The store named by `--store`, then `$ENTITLEMENT_STORE`, then the XDG default.
    func store(flag: String?, lockTimeout: Double = EntitlementStore.defaultLockTimeout) -> EntitlementStore {
        EntitlementStore(root: StoreLocation.resolve(flag: flag, environment: environment), lockTimeout: lockTimeout)
    }
}
