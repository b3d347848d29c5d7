/// The command-line program: parse, run, report errors, return the exit code.
public struct CLI {
    public static let version = "1.0.0"

    public var context: Context

    public init(context: Context) { self.context = context }

    /// Runs one invocation; `arguments` excludes the program name.
    public func run(_ arguments: [String]) -> Int32 {
        let code = runCommand(arguments)
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
        do {
            switch try Command.parse(arguments) {
            case .help(let spec):
                context.stdout.write(spec.map(HelpText.forCommand) ?? HelpText.main(Command.specs))
                return ExitCode.success.rawValue
            case .version:
                context.stdout.write("entitlement \(Self.version)\n")
                return ExitCode.success.rawValue
            case .run(let command):
                return try command.run(context).rawValue
            }
        } catch {
            report(error)
            return error.exitCode.rawValue
        }
    }

    /// `Error: …`, a hint where one helps, and for usage errors the usage line.
    func report(_ error: EntitlementError) {
        context.stdout.flush()
        var text = "Error: \(error.description)\n"
        if let hint = error.hint { text += "\(hint)\n" }
        if case .usage(_, _, let name?) = error, let spec = Command.specs.first(where: { $0.name == name }) {
            text += "Usage: \(spec.usageLine.split(separator: "\n").first ?? "")\n"
            text += "See 'entitlement \(name) --help'.\n"
        }
        context.stderr.write(text)
    }
}
