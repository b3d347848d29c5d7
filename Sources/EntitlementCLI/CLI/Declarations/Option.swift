import FoundationEssentials

/// Anything a command declares among its options; the parser and help read its `spec`.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// Where a value came from, so a refusal names it: `--lock-timeout` or `$ENTITLEMENT_LOCK_TIMEOUT`.
enum ValueSource: Equatable, Sendable {
    case option(String)
    case environment(String)

    /// "value for --lock-timeout" or "ENTITLEMENT_LOCK_TIMEOUT", after "invalid ".
    var phrase: String {
        switch self {
        case .option(let name): return "value for --\(name)"
        case .environment(let name): return name
        }
    }
}

/// A value an option's parser refused: the message and, where it helps, how to write it.
struct ValueProblem: Error, Equatable {
    var message: String
    var hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

/// An option that takes a value: the declaration, and the parser that types the value.
///
/// Declared once (`static let at = Option.date("at", …)`); the command reads the typed value
/// with `parsed.value(Self.at)`, and help, completions and the man page read `spec`.
struct Option<Value: Sendable>: OptionDeclaration {
    var spec: OptionSpec
    let parse: @Sendable (_ text: String, _ source: ValueSource) throws(ValueProblem) -> Value
    /// For values relative to the start of the run (`--at -3d`): tried first, with that instant.
    var parseRelative: (@Sendable (_ text: String, _ now: Date) -> Value?)?

    init(_ name: String, short: Character? = nil, value: String, kind: ValueKind, repeatable: Bool = false, help: String,
         parse: @escaping @Sendable (_ text: String, _ source: ValueSource) throws(ValueProblem) -> Value) {
        spec = OptionSpec(name, short: short, value: value, kind: kind, repeatable: repeatable, help: help)
        self.parse = parse
    }

    /// The same option, with a default (and an environment variable read before it).
    func withDefault(_ value: Value, shown: String, environmentVariable: String? = nil) -> DefaultedOption<Value> {
        var option = self
        option.spec.environmentVariable = environmentVariable
        option.spec.defaultText = shown
        return DefaultedOption(option: option, defaultValue: value)
    }

    /// The same option, with a default that is a description rather than a value
    /// (the store's XDG location, the login name), resolved where it is used.
    func describingDefault(_ text: String, environmentVariable: String? = nil) -> Option<Value> {
        var option = self
        option.spec.environmentVariable = environmentVariable
        option.spec.defaultText = text
        return option
    }
}

/// An option with a default value: reading it always gives a value.
struct DefaultedOption<Value: Sendable>: OptionDeclaration {
    let option: Option<Value>
    let defaultValue: Value

    var spec: OptionSpec { option.spec }

    /// The given value, else the environment variable's (parsed the same way), else the default.
    func resolve(given: Value?, environment: [String: String]) throws(ValueProblem) -> Value {
        if let given { return given }
        if let name = spec.environmentVariable, let text = environment[name], !text.isEmpty {
            return try option.parse(text, .environment(name))
        }
        return defaultValue
    }
}

/// An option without a value: present or not.
struct Flag: OptionDeclaration {
    var spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(name, short: short, help: help)
    }
}
