import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// A parsed command line with the settings that apply to any command: what to run,
/// whether to be quiet, whether to colour, whether errors are JSON.
struct Invocation: Sendable {
    var command: Command
    var quiet = false
    var color = ColorChoice.auto
    /// `--json` (or `--output json|jsonl`): errors are printed as JSON too.
    var json = false

    /// Parses `arguments` (without the program name); `now` resolves relative dates.
    ///
    /// Global options may come before the command, as in `git -C` or `git --no-pager`: they
    /// are moved after the command name, so they mean exactly what they mean there. Before
    /// the command they are settings for any command (an alias may hold them), so one the
    /// command has no use for is left out rather than refused (`GlobalOptions.applying`).
    static func parse(_ arguments: [String], now: Date? = nil) throws(EntitlementError) -> Invocation {
        var leading: [String] = []
        var index = 0
        while index < arguments.count, let option = GlobalOptions.movable(arguments[index]) {
            leading.append(arguments[index])
            index += 1
            if option.takesValue, !arguments[index - 1].contains("=") {
                guard index < arguments.count else {
                    throw .usage("option '--\(option.name)' needs a value (\(option.valueName ?? "VALUE")).", hint: "See 'entitlement --help'.")
                }
                leading.append(arguments[index])
                index += 1
            }
        }
        let rest = Array(arguments[index...])
        var invocation = Invocation(command: .help(nil))
        invocation.json = ErrorFormat.wantsJSON(arguments)
        if let first = rest.first, GlobalOptions.matches(first, GlobalOptions.version) {
            // `entitlement --version --json` and `entitlement --json --version`.
            guard rest.dropFirst().allSatisfy({ $0 == "--json" }) else {
                throw .usage("--version takes no arguments other than --json.", hint: "See 'entitlement --help'.")
            }
            invocation.command = .version
            return invocation
        }
        // Settings are read from the command's own parse, where they are declared; help
        // and a bare `entitlement` ignore leading options.
        if rest.isEmpty, !leading.isEmpty {
            throw .usage("missing command after \(leading.map(Terminal.escape).joined(separator: " ")).", hint: "See 'entitlement --help' for the list of commands.")
        }
        guard let name = rest.first, !GlobalOptions.matches(name, GlobalOptions.help), name != Command.helpName else {
            invocation.command = try Command.parse(rest, now: now)
            return invocation
        }
        let entry = try Command.entry(named: name)
        let parsed = try ParsedArguments.parse(try GlobalOptions.applying(leading, to: entry.spec) + Array(rest.dropFirst()), spec: entry.spec, now: now)
        invocation.quiet = parsed.flag(CommonOptions.quiet)
        invocation.color = try parsed.value(CommonOptions.color)
        if parsed.flag(CommonOptions.help) {
            invocation.command = .help(entry.spec)
        } else {
            invocation.command = try entry.parse(parsed)
        }
        return invocation
    }
}
