/// One option as the parser and the help text see it: name, short name, value, default and help.
///
/// Built by an `Option`, `DefaultedOption` or `Flag` declaration, never by hand in a command.
struct OptionSpec: Sendable {
    var name: String
    var short: Character?
    /// The value's placeholder (`DIR`); nil for a flag.
    var valueName: String?
    var help: String
    var repeatable: Bool
    /// What the value is, for completions; nil for a flag.
    var kind: ValueKind?
    /// The environment variable read when the option is not given.
    var environmentVariable: String?
    /// The default, as help shows it (after the environment variable, if any).
    var defaultText: String?

    init(_ name: String, short: Character? = nil, value: String? = nil, kind: ValueKind? = nil, repeatable: Bool = false,
         environmentVariable: String? = nil, defaultText: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.valueName = value
        self.kind = kind
        self.help = help
        self.repeatable = repeatable
        self.environmentVariable = environmentVariable
        self.defaultText = defaultText
    }

    var takesValue: Bool { valueName != nil }

    /// `-q, --quiet` or `--store DIR`.
    var label: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }

    /// The help line: the text, then what is repeatable and what the default is, from the declaration.
    var helpLine: String {
        HelpText.withNotes(help, repeatable: repeatable, defaults: [environmentVariable.map { "$\($0)" }, defaultText].compactMap { $0 })
    }
}

/// One positional argument.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isOptional: Bool
    /// Takes every remaining positional.
    var isVariadic: Bool
    var kind: ValueKind
    /// The value used when the argument is left out, as help shows it.
    var defaultText: String?

    init(_ name: String, kind: ValueKind, optional: Bool = false, variadic: Bool = false, defaultText: String? = nil, help: String) {
        self.name = name
        self.kind = kind
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
        self.defaultText = defaultText
    }

    var helpLine: String { HelpText.withNotes(help, repeatable: false, defaults: defaultText.map { [$0] } ?? []) }
}
