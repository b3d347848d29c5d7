import EntitlementModel

/// A command's parsed options: built from arguments without I/O, then run.
protocol RunnableCommand: Sendable {
    /// Name, abstract, arguments and options: the one source of parsing and help.
    static var spec: CommandSpec { get }
    /// Validates and types the arguments. Pure: no files, no clock, no environment.
    init(_ parsed: ParsedArguments) throws(EntitlementError)
    /// Does the work and returns the exit code; failures are thrown as values.
    func run(_ context: Context) throws(EntitlementError) -> ExitCode
}
