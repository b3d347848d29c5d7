import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// A command line split into positionals, option values and flags; no meaning yet.
struct ParsedArguments: Equatable, Sendable {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    /// The command these arguments are for: usage errors from typed reads name it.
    var command: String = ""
    /// The instant relative dates (`now`, `-3d`) are resolved against: the start of the run.
    var now: Date?

    /// Splits `arguments` by `spec`. Throws a usage error for an unknown option
    /// (with "Did you mean …?"), a missing value, or a wrong number of arguments.
    /// A single-value option given twice takes the last value, and a repeated flag counts
    /// once, so an alias can set a default that the command line overrides.
    static func parse(_ arguments: [String], spec: CommandSpec, now: Date? = nil) throws(EntitlementError) -> ParsedArguments {
        var parsed = ParsedArguments(command: spec.name, now: now)
        var index = 0
        var onlyPositionals = false
        func fail(_ message: String) -> EntitlementError { .usage(message, command: spec.name) }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var inlineValue: String?
            let option: OptionSpec
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let found = spec.option(named: name) else {
                    let suggestion = Suggestion.closest(to: name, in: spec.options.map(\.name)).map { " Did you mean '--\($0)'?" } ?? ""
                    throw fail("unknown option '--\(Terminal.escape(name))' for '\(spec.name)'.\(suggestion)")
                }
                option = found
            } else {
                let letters = Array(argument.dropFirst())
                guard letters.count == 1, let found = spec.option(short: letters[0]) else {
                    if letters.allSatisfy({ spec.option(short: $0)?.takesValue == false }) {
                        for letter in letters { parsed.flags.insert(spec.option(short: letter)!.name) }
                        continue
                    }
                    if argument.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) {
                        parsed.positionals.append(argument)  // a negative number, for a value check to judge
                        continue
                    }
                    throw fail("unknown option '\(Terminal.escape(argument))' for '\(spec.name)'.")
                }
                option = found
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    // A known option where the value should be means the value is missing:
                    // `--reason --dry-run` must not record "--dry-run" and write for real.
                    guard index < arguments.count, !Self.isOption(arguments[index], of: spec) else {
                        throw fail("option '--\(option.name)' needs a value (\(option.valueName ?? "VALUE")); to pass one that starts with '-', write --\(option.name)=VALUE.")
                    }
                    value = arguments[index]
                    index += 1
                }
                guard !value.isEmpty else { throw fail("option '--\(option.name)' needs a non-empty value.") }
                if option.repeatable {
                    parsed.values[option.name, default: []].append(value)
                } else {
                    parsed.values[option.name] = [value]  // the last one wins
                }
            } else {
                guard inlineValue == nil else { throw fail("option '--\(option.name)' takes no value.") }
                parsed.flags.insert(option.name)
            }
        }
        if parsed.flag(CommonOptions.help) { return parsed }
        let required = spec.arguments.filter { !$0.isOptional }.count
        let variadic = spec.arguments.contains { $0.isVariadic }
        if parsed.positionals.count > spec.arguments.count, !variadic {
            let extra = parsed.positionals[spec.arguments.count]
            throw fail("unexpected argument '\(Terminal.escape(extra))'.")
        }
        if parsed.positionals.count < required {
            let missing = spec.arguments[parsed.positionals.count].name
            throw fail("missing argument \(missing).")
        }
        return parsed
    }

    /// True when `argument` names one of `spec`'s options (`--name`, `--name=…` or `-x`).
    static func isOption(_ argument: String, of spec: CommandSpec) -> Bool {
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2).split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return spec.option(named: name) != nil
        }
        if argument.count == 2, argument.hasPrefix("-"), let letter = argument.last { return spec.option(short: letter) != nil }
        return false
    }
}
