import EntitlementBasics
import EntitlementModel

/// `entitlement completions SHELL`: print a completion script generated from the declarations.
struct CompletionsCommand: RunnableCommand, Equatable {
    enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
            Completes commands, options, option values (choices, dates), files, entitlements
            from the store's config.json and customer user ids from the store's profile
            file names (--store on the command line, else $ENTITLEMENT_STORE). `make install`
            installs all three scripts where the shells look for them.
            """,
        arguments: [ArgumentSpec("SHELL", kind: .choice(Shell.allCases.map(\.rawValue)), help: "bash, zsh or fish.")],
        options: [],
        examples: [
            "source <(entitlement completions bash)",
            "entitlement completions zsh > \"${fpath[1]}/_entitlement\"",
            "entitlement completions fish > ~/.config/fish/completions/entitlement.fish",
        ])

    var shell: Shell

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let text = parsed.positionals[0]
        guard let shell = Shell(rawValue: text) else {
            let suggestion = Suggestion.closest(to: text, in: Shell.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
            throw .usage("unknown shell '\(Terminal.escape(text))'; expected bash, zsh or fish.\(suggestion)", command: Self.spec.name)
        }
        self.shell = shell
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        switch shell {
        case .bash: context.stdout.write(BashCompletion.script())
        case .zsh: context.stdout.write(ZshCompletion.script())
        case .fish: context.stdout.write(FishCompletion.script())
        }
        return .success
    }
}
