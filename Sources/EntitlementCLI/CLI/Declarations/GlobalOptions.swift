import EntitlementModel

/// Options that stand in place of a command: `entitlement --help`, `entitlement -V`.
enum GlobalOptions {
    static let help = Flag("help", short: "h", help: "Show help.")
    static let version = Flag("version", short: "V", help: "Show the version.")

    /// Options that may also come before the command (`entitlement --store DIR check alice`).
    static let movable: [any OptionDeclaration] = [
        CommonOptions.store, CommonOptions.json, CommonOptions.output, CommonOptions.noHeaders, CommonOptions.quiet, CommonOptions.color,
    ]
    static var movableNames: [String] { movable.map(\.spec.name) }

    /// In the order the main help lists them.
    static var all: [any OptionDeclaration] { [help, version] + movable }

    /// The movable option `argument` spells (`--store`, `--store=DIR`, `-q`), if any.
    static func movable(_ argument: String) -> OptionSpec? {
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2).split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return movable.first { $0.spec.name == name }?.spec
        }
        guard argument.count == 2, argument.hasPrefix("-"), let letter = argument.last else { return nil }
        return movable.first { $0.spec.short == letter }?.spec
    }

    /// The leading options `arguments` (as split by `Invocation.parse`) that `spec` can use,
    /// in order. `--output json|jsonl` is `--json` for a command that prints JSON but no
    /// records; any other option the command does not declare (`--no-headers` for `grant`,
    /// `--store` for `man`, `--output csv` for `init`) does not apply to it and is left out,
    /// as git leaves `--no-pager` to commands that page. After the command name, the same
    /// option is refused as unknown: there it can only be a mistake.
    /// A value is checked even when left out, so `--output jason` is never silently ignored.
    static func applying(_ arguments: [String], to spec: CommandSpec) throws(EntitlementError) -> [String] {
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard let option = movable(argument) else { continue }
            var value: String?
            if option.takesValue {
                if let equals = argument.firstIndex(of: "=") {
                    value = String(argument[argument.index(after: equals)...])
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
            }
            if option.name == CommonOptions.output.spec.name, let value {
                do { _ = try CommonOptions.output.option.parse(value, .option(option.name)) } catch {
                    throw .usage(error.message, hint: error.hint ?? "See 'entitlement --help'.")
                }
            }
            if spec.option(named: option.name) != nil {
                kept.append(argument)
                if option.takesValue, !argument.contains("="), let value { kept.append(value) }
            } else if option.name == CommonOptions.output.spec.name, value == "json" || value == "jsonl",
                      spec.option(named: CommonOptions.json.spec.name) != nil {
                kept.append("--" + CommonOptions.json.spec.name)
            }
        }
        return kept
    }

    /// True when `argument` spells `flag` (`--version` or `-V`).
    static func matches(_ argument: String, _ flag: Flag) -> Bool {
        argument == "--\(flag.spec.name)" || flag.spec.short.map { argument == "-\($0)" } == true
    }
}
