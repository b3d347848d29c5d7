/// A parsed command line: which command, with its typed options. Built without I/O.
public enum Command: Sendable {
    case run(any RunnableCommand)
    /// `help [COMMAND]`, `--help`, or `COMMAND --help`.
    case help(CommandSpec?)
    case version

    /// Every command, in the order help lists them.
    public static let all: [any RunnableCommand.Type] = [
        CheckCommand.self, StatusCommand.self, HistoryCommand.self, GrantCommand.self, RevokeCommand.self, ImportCommand.self,
        InitCommand.self, CloneCommand.self, SyncCommand.self, MigrateCommand.self, PathCommand.self,
    ]

    /// Commands for other programs (git), accepted but not listed in the main help.
    public static let plumbing: [any RunnableCommand.Type] = [MergeDriverCommand.self]

    public static var specs: [CommandSpec] { all.map { $0.spec } + [helpSpec] }

    static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for the tool or a command.",
        arguments: [ArgumentSpec("COMMAND", optional: true, help: "The command to explain.")], options: [])

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(EntitlementError) -> Command {
        guard let first = arguments.first else { return .help(nil) }
        switch first {
        case "-h", "--help": return .help(nil)
        case "--version", "-V": return .version
        case "help":
            guard arguments.count > 1 else { return .help(nil) }
            guard arguments.count == 2 else { throw .usage("help takes at most one command.", command: "help") }
            if arguments[1] == helpSpec.name || arguments[1] == "--help" || arguments[1] == "-h" { return .help(helpSpec) }
            return .help(try commandType(named: arguments[1]).spec)
        default:
            let type = try commandType(named: first)
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: type.spec)
            if parsed.flag("help") { return .help(type.spec) }
            return .run(try type.init(parsed))
        }
    }

    static func commandType(named name: String) throws(EntitlementError) -> any RunnableCommand.Type {
        if let type = (all + plumbing).first(where: { $0.spec.name == name }) { return type }
        if name.hasPrefix("-") {
            throw .usage("unknown option '\(Terminal.escape(name))'; options come after the command.", hint: "See 'entitlement --help'.")
        }
        let suggestion = Suggestion.closest(to: name, in: specs.map(\.name)).map { " Did you mean '\($0)'?" } ?? ""
        throw .usage("unknown command '\(Terminal.escape(name))'.\(suggestion)", hint: "See 'entitlement --help' for the list of commands.")
    }
}
