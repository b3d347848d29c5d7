import EntitlementModel

/// `entitlement man`: print the manual page entitlement(1) in roff.
struct ManCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the manual page entitlement(1) (roff).",
        discussion: "Generated from the same declarations as --help. `make install` installs it; read it here with `entitlement man | man -l -`.",
        options: [],
        examples: ["entitlement man | man -l -", "entitlement man > entitlement.1"])

    init(_ parsed: ParsedArguments) throws(EntitlementError) {}

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        context.stdout.write(ManPage.render(version: CLI.version))
        return .success
    }
}
