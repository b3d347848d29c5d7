/// The command-line program: parse, run, report errors, return the exit code.
public struct CLI {
    public static let version = "1.0.0"

    public var context: Context

    public init(context: Context) { self.context = context }

    /// Runs one invocation from the raw bytes of each argument (without the program name).
    /// An argument that is not valid UTF-8 is refused (exit 2), never repaired: two different
    /// byte strings must never name the same customer.
    public func run(rawArguments: [[UInt8]]) -> Int32 {
        switch RawArguments.decode(rawArguments) {
        case .success(let arguments): return run(arguments)
        case .failure(let error):
            report(error)
            return finish(error.exitCode.rawValue)
        }
    }

    /// Runs one invocation; `arguments` excludes the program name.
    public func run(_ arguments: [String]) -> Int32 {
        finish(runCommand(arguments))
    }

    private func finish(_ code: Int32) -> Int32 {
        context.stdout.flush()
        // Output that did not arrive is a failure, not a success: `status > /dev/full`.
        if let failure = context.stdout.writeError {
            context.stderr.write("Error: cannot write to standard output: \(failure)\n")
            context.stderr.flush()
            return ExitCode.dataError.rawValue
        }
        context.stderr.flush()
        return code
    }

    func runCommand(_ arguments: [String]) -> Int32 {
        var running: CommandSpec?
        do {
            let command = try Command.parse(arguments)
            running = command.spec
            return try run(command).rawValue
        } catch {
            report(error, running: running)
            return error.exitCode.rawValue
        }
    }

    /// Runs a parsed command. The switch is exhaustive: a new command must be handled here.
    func run(_ command: Command) throws(EntitlementError) -> ExitCode {
        switch command {
        case .check(let check): return try check.run(context)
        case .status(let status): return try status.run(context)
        case .history(let history): return try history.run(context)
        case .grant(let grant): return try grant.run(context)
        case .revoke(let revoke): return try revoke.run(context)
        case .restore(let restore): return try restore.run(context)
        case .import(let importCommand): return try importCommand.run(context)
        case .find(let find): return try find.run(context)
        case .summary(let summary): return try summary.run(context)
        case .verify(let verify): return try verify.run(context)
        case .initStore(let initCommand): return try initCommand.run(context)
        case .path(let path): return try path.run(context)
        case .clone(let clone): return try clone.run(context)
        case .sync(let sync): return try sync.run(context)
        case .migrate(let migrate): return try migrate.run(context)
        case .mergeDriver(let driver): return try driver.run(context)
        case .help(let spec):
            context.stdout.write(spec.map(HelpText.forCommand) ?? HelpText.main(Command.specs))
            return .success
        case .version:
            context.stdout.write("entitlement \(Self.version)\n")
            return .success
        }
    }

    /// `Error: …`, a hint where one helps, and for usage errors the usage line of the
    /// command they concern (named by the error, else the command that was running).
    func report(_ error: EntitlementError, running: CommandSpec? = nil) {
        context.stdout.flush()
        var text = "Error: \(error.description)\n"
        if let hint = error.hint { text += "\(hint)\n" }
        if let spec = error.usageCommand.flatMap({ name in Command.specs.first { $0.name == name } }) ?? (error.showsUsage ? running : nil) {
            text += "Usage: \(spec.usageLine.split(separator: "\n").first ?? "")\n"
            text += "See 'entitlement \(spec.name) --help'.\n"
        }
        context.stderr.write(text)
    }
}
