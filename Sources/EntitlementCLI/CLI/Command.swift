import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// A parsed command line: which command, with its typed options. Built without I/O.
///
/// A closed enum: `CLI` switches over it, so the compiler proves every command is run,
/// and tests pattern-match (`guard case .grant(let grant) = …`).
enum Command: Sendable {
    case check(CheckCommand)
    case status(StatusCommand)
    case history(HistoryCommand)
    case log(LogCommand)
    case grant(GrantCommand)
    case revoke(RevokeCommand)
    case restore(RestoreCommand)
    case transfer(TransferCommand)
    case `import`(ImportCommand)
    case ingest(IngestCommand)
    case refresh(RefreshCommand)
    case lookup(LookupCommand)
    case webhook(WebhookCommand)
    case find(FindCommand)
    case summary(SummaryCommand)
    case verify(VerifyCommand)
    case initStore(InitCommand)
    case path(PathCommand)
    case clone(CloneCommand)
    case sync(SyncCommand)
    case migrate(MigrateCommand)
    /// Plumbing for git (`merge-driver`): accepted, but not listed in the main help.
    case mergeDriver(MergeDriverCommand)
    case completions(CompletionsCommand)
    case manPage(ManCommand)
    /// Hidden: candidates for the completion scripts.
    case complete(CompleteCommand)
    /// `help [COMMAND]`, `--help`, or `COMMAND --help`.
    case help(CommandSpec?)
    case version

    /// One command of the table: its name, its declaration (built only when asked for, so
    /// a run builds the declaration of the command it runs and no other) and its parser.
    struct Entry: Sendable {
        let name: String
        private let makeSpec: @Sendable () -> CommandSpec
        let parse: @Sendable (ParsedArguments) throws(EntitlementError) -> Command

        init(_ name: String, _ spec: @escaping @Sendable () -> CommandSpec, _ parse: @escaping @Sendable (ParsedArguments) throws(EntitlementError) -> Command) {
            self.name = name
            self.makeSpec = spec
            self.parse = parse
        }

        /// The declaration (a `static let` of the command type, built once).
        var spec: CommandSpec { makeSpec() }
    }

    /// The name of the `help` command, known without building its declaration.
    static let helpName = "help"

    /// Every command's declaration and parser, in the order help lists them.
    static let table: [Entry] = [
        Entry("check", { CheckCommand.spec }, { (parsed) throws(EntitlementError) in .check(try CheckCommand(parsed)) }),
        Entry("status", { StatusCommand.spec }, { (parsed) throws(EntitlementError) in .status(try StatusCommand(parsed)) }),
        Entry("history", { HistoryCommand.spec }, { (parsed) throws(EntitlementError) in .history(try HistoryCommand(parsed)) }),
        Entry("log", { LogCommand.spec }, { (parsed) throws(EntitlementError) in .log(try LogCommand(parsed)) }),
        Entry("grant", { GrantCommand.spec }, { (parsed) throws(EntitlementError) in .grant(try GrantCommand(parsed)) }),
        Entry("revoke", { RevokeCommand.spec }, { (parsed) throws(EntitlementError) in .revoke(try RevokeCommand(parsed)) }),
        Entry("restore", { RestoreCommand.spec }, { (parsed) throws(EntitlementError) in .restore(try RestoreCommand(parsed)) }),
        Entry("transfer", { TransferCommand.spec }, { (parsed) throws(EntitlementError) in .transfer(try TransferCommand(parsed)) }),
        Entry("import", { ImportCommand.spec }, { (parsed) throws(EntitlementError) in .import(try ImportCommand(parsed)) }),
        Entry("ingest", { IngestCommand.spec }, { (parsed) throws(EntitlementError) in .ingest(try IngestCommand(parsed)) }),
        Entry("refresh", { RefreshCommand.spec }, { (parsed) throws(EntitlementError) in .refresh(try RefreshCommand(parsed)) }),
        Entry("lookup", { LookupCommand.spec }, { (parsed) throws(EntitlementError) in .lookup(try LookupCommand(parsed)) }),
        Entry("webhook", { WebhookCommand.spec }, { (parsed) throws(EntitlementError) in .webhook(try WebhookCommand(parsed)) }),
        Entry("find", { FindCommand.spec }, { (parsed) throws(EntitlementError) in .find(try FindCommand(parsed)) }),
        Entry("summary", { SummaryCommand.spec }, { (parsed) throws(EntitlementError) in .summary(try SummaryCommand(parsed)) }),
        Entry("verify", { VerifyCommand.spec }, { (parsed) throws(EntitlementError) in .verify(try VerifyCommand(parsed)) }),
        Entry("init", { InitCommand.spec }, { (parsed) throws(EntitlementError) in .initStore(try InitCommand(parsed)) }),
        Entry("clone", { CloneCommand.spec }, { (parsed) throws(EntitlementError) in .clone(try CloneCommand(parsed)) }),
        Entry("sync", { SyncCommand.spec }, { (parsed) throws(EntitlementError) in .sync(try SyncCommand(parsed)) }),
        Entry("migrate", { MigrateCommand.spec }, { (parsed) throws(EntitlementError) in .migrate(try MigrateCommand(parsed)) }),
        Entry("path", { PathCommand.spec }, { (parsed) throws(EntitlementError) in .path(try PathCommand(parsed)) }),
        Entry("completions", { CompletionsCommand.spec }, { (parsed) throws(EntitlementError) in .completions(try CompletionsCommand(parsed)) }),
        Entry("man", { ManCommand.spec }, { (parsed) throws(EntitlementError) in .manPage(try ManCommand(parsed)) }),
        Entry("__complete", { CompleteCommand.spec }, { (parsed) throws(EntitlementError) in .complete(try CompleteCommand(parsed)) }),
    ]

    /// Commands for other programs (git): parsed like the others, never listed in help.
    static let plumbing: [Entry] = [
        Entry("merge-driver", { MergeDriverCommand.spec }, { (parsed) throws(EntitlementError) in .mergeDriver(try MergeDriverCommand(parsed)) }),
    ]

    /// Every declaration, `help` last: the source of help, completions and the man page.
    static var specs: [CommandSpec] { table.map(\.spec) + [helpSpec] }

    static let helpSpec: CommandSpec = {
        var spec = CommandSpec(
        name: helpName, abstract: "Show help for the tool or a command.",
        arguments: [ArgumentSpec("COMMAND", kind: .choice(table.map(\.spec).filter { !$0.isHidden }.map(\.name)), optional: true, help: "The command to explain.")], options: [])
        spec.options = [CommonOptions.help.spec]  // help reads no other option
        return spec
    }()

    /// Parses `arguments` (without the program name); `now` resolves relative dates.
    /// Global options before the command are handled by `Invocation.parse`.
    static func parse(_ arguments: [String], now: Date? = nil) throws(EntitlementError) -> Command {
        guard let first = arguments.first else { return .help(nil) }
        if GlobalOptions.movable(first) != nil || GlobalOptions.matches(first, GlobalOptions.version) {
            return try Invocation.parse(arguments, now: now).command
        }
        if GlobalOptions.matches(first, GlobalOptions.help) { return .help(nil) }
        if first == helpName {
            guard arguments.count > 1 else { return .help(nil) }
            guard arguments.count == 2 else { throw .usage("help takes at most one command.", command: "help") }
            if arguments[1] == helpName || GlobalOptions.matches(arguments[1], GlobalOptions.help) { return .help(helpSpec) }
            return .help(try entry(named: arguments[1]).spec)
        }
        let command = try entry(named: first)
        let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: command.spec, now: now)
        if parsed.flag(CommonOptions.help) { return .help(command.spec) }
        _ = try parsed.value(CommonOptions.color)  // read by `Invocation`; refused here as well
        return try command.parse(parsed)
    }

    /// The declaration of the command to run (nil for help and version).
    var spec: CommandSpec? {
        switch self {
        case .check: return CheckCommand.spec
        case .status: return StatusCommand.spec
        case .history: return HistoryCommand.spec
        case .log: return LogCommand.spec
        case .grant: return GrantCommand.spec
        case .revoke: return RevokeCommand.spec
        case .restore: return RestoreCommand.spec
        case .transfer: return TransferCommand.spec
        case .import: return ImportCommand.spec
        case .find: return FindCommand.spec
        case .summary: return SummaryCommand.spec
        case .verify: return VerifyCommand.spec
        case .initStore: return InitCommand.spec
        case .path: return PathCommand.spec
        case .clone: return CloneCommand.spec
        case .sync: return SyncCommand.spec
        case .ingest: return IngestCommand.spec
        case .refresh: return RefreshCommand.spec
        case .lookup: return LookupCommand.spec
        case .webhook: return WebhookCommand.spec
        case .migrate: return MigrateCommand.spec
        case .mergeDriver: return MergeDriverCommand.spec
        case .completions: return CompletionsCommand.spec
        case .manPage: return ManCommand.spec
        case .complete: return CompleteCommand.spec
        case .help, .version: return nil
        }
    }

    static func entry(named name: String) throws(EntitlementError) -> Entry {
        if let entry = table.first(where: { $0.name == name }) ?? plumbing.first(where: { $0.name == name }) { return entry }
        if name.hasPrefix("-") {
            let global = GlobalOptions.movableNames.map { "--\($0)" }.joined(separator: ", ")
            throw .usage("unknown option '\(Terminal.escape(name))' before the command; only \(global) and -q may come first.", hint: "See 'entitlement --help'.")
        }
        let suggestion = Suggestion.closest(to: name, in: specs.map(\.name)).map { " Did you mean '\($0)'?" } ?? ""
        throw .usage("unknown command '\(Terminal.escape(name))'.\(suggestion)", hint: "See 'entitlement --help' for the list of commands.")
    }
}
