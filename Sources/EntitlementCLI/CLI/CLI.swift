import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The command-line program: parse, run, report errors, return the exit code.
package struct CLI {
    static let version = "1.0.0"

    package var context: Context

    package init(context: Context) { self.context = context }

    /// Runs one invocation from the raw bytes of each argument (without the program name).
    /// An argument that is not valid UTF-8 is refused (exit 2), never repaired: two different
    /// byte strings must never name the same customer.
    package func run(rawArguments: [[UInt8]]) -> Int32 {
        switch RawArguments.decode(rawArguments) {
        case .success(let arguments): return run(arguments)
        case .failure(let error):
            let json = rawArguments.contains(Array("--json".utf8))
            report(error, json: json, in: context)
            return finish(error.exitCode.rawValue, json: json, in: context)
        }
    }

    /// Runs one invocation; `arguments` excludes the program name.
    package func run(_ arguments: [String]) -> Int32 {
        // Relative dates and every "now" of the run are one instant, read once here, at the
        // precision the store writes: a `restored_at` or `granted_at` written from it then
        // never reads back later than the instant the run evaluates at.
        let start = Self.storePrecision(context.now())
        var context = self.context
        context.now = { start }
        let json = ErrorFormat.wantsJSON(arguments)
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments, now: start)
        } catch {
            report(error, json: json, in: context)
            return finish(error.exitCode.rawValue, json: json, in: context)
        }
        context.color = invocation.color
        context.quiet = invocation.quiet
        context.json = invocation.json
        if invocation.quiet { context.stdout = OutputSink(discarding: ()) }
        let code: Int32
        do {
            code = try run(invocation, in: context).rawValue
        } catch {
            report(error, json: invocation.json, running: invocation.command.spec, in: context)
            code = error.exitCode.rawValue
        }
        return finish(code, json: invocation.json, in: context)
    }

    private func finish(_ code: Int32, json: Bool, in context: Context) -> Int32 {
        context.stdout.flush()
        // The reader left (`| head`): stop quietly, as git does, with the status a death by
        // SIGPIPE gives, so `set -o pipefail` still sees it.
        if context.stdout.isClosed {
            context.stderr.flush()
            return ExitCode.outputClosed.rawValue
        }
        // Output that did not arrive is a failure, not a success: `status > /dev/full`.
        if let failure = context.stdout.writeError {
            report(.io(path: "standard output", message: "cannot write: \(failure)"), json: json, in: context)
            context.stderr.flush()
            return ExitCode.dataError.rawValue
        }
        context.stderr.flush()
        return code
    }

    /// Runs a parsed command. The switch is exhaustive: a new command must be handled here.
    func run(_ invocation: Invocation, in context: Context) throws(EntitlementError) -> ExitCode {
        switch invocation.command {
        case .check(let check): return try check.run(context)
        case .status(let status): return try status.run(context)
        case .history(let history): return try history.run(context)
        case .log(let log): return try log.run(context)
        case .grant(let grant): return try grant.run(context)
        case .revoke(let revoke): return try revoke.run(context)
        case .restore(let restore): return try restore.run(context)
        case .transfer(let transfer): return try transfer.run(context)
        case .import(let importCommand): return try importCommand.run(context)
        case .find(let find): return try find.run(context)
        case .summary(let summary): return try summary.run(context)
        case .verify(let verify): return try verify.run(context)
        case .initStore(let initCommand): return try initCommand.run(context)
        case .path(let path): return try path.run(context)
        case .clone(let clone): return try clone.run(context)
        case .sync(let sync): return try sync.run(context)
        case .ingest(let ingest): return try ingest.run(context)
        case .refresh(let refresh): return try refresh.run(context)
        case .lookup(let lookup): return try lookup.run(context)
        case .webhook(let webhook): return try webhook.run(context)
        case .migrate(let migrate): return try migrate.run(context)
        case .mergeDriver(let driver): return try driver.run(context)
        case .completions(let completions): return try completions.run(context)
        case .manPage(let man): return try man.run(context)
        case .complete(let complete): return try complete.run(context)
        case .help(let spec):
            context.stdout.write(spec.map(HelpText.forCommand) ?? HelpText.main(CommandSpec.visible))
            return .success
        case .version:
            context.stdout.write(invocation.json ? JSONWriter().string(.object(BuildInfo.json(version: Self.version))) : "entitlement \(Self.version)\n")
            return .success
        }
    }

    /// Under `--json`, one JSON object (docs/json-output.md, "Errors"). Else `Error: …`, a hint
    /// where one helps, and for usage errors the usage line of the command they concern
    /// (named by the error, else the command that was running).
    func report(_ error: EntitlementError, json: Bool, running: CommandSpec? = nil, in context: Context) {
        context.stdout.flush()
        // Nobody reads the output any more; what went wrong after that is not news.
        if context.stdout.isClosed { return }
        if json {
            context.stderr.write(error.jsonLine)
            return
        }
        var text = "Error: \(error.description)\n"
        if let hint = error.hint { text += "\(hint)\n" }
        if let spec = error.usageCommand.flatMap({ name in Command.specs.first { $0.name == name } }) ?? (error.showsUsage ? running : nil) {
            text += "Usage: \(spec.usageLine.split(separator: "\n").first ?? "")\n"
            text += "See 'entitlement \(spec.name) --help'.\n"
        }
        context.stderr.write(text)
    }

    /// `date` as the store would read it back after writing it (`ISODate` keeps microseconds).
    static func storePrecision(_ date: Date) -> Date { ISODate.parse(ISODate.format(date)) ?? date }
}
