/// One option a command accepts; parsing and help both come from this.
public struct OptionSpec: Sendable {
    public var name: String
    public var short: Character?
    /// The value's placeholder (`DIR`); nil for a flag.
    public var valueName: String?
    public var help: String
    public var repeatable: Bool

    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.repeatable = repeatable
    }

    public var takesValue: Bool { valueName != nil }

    /// `-q, --quiet` or `--store DIR`.
    var label: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

/// One positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    /// Takes every remaining positional.
    public var isVariadic: Bool

    public init(_ name: String, optional: Bool = false, variadic: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
    }
}

/// A command's declaration: name, abstract, arguments and options, declared once.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    /// The usage line after `entitlement NAME`, when the generated one is not clear enough.
    public var usage: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var examples: [String]

    public init(name: String, abstract: String, discussion: String? = nil, usage: String? = nil,
                arguments: [ArgumentSpec] = [], options: [OptionSpec], examples: [String] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options + [CommonOptions.help]
        self.examples = examples
    }

    public var usageLine: String {
        if let usage { return "entitlement \(name) \(usage)" }
        var parts = ["entitlement", name]
        for argument in arguments {
            let text = argument.name + (argument.isVariadic ? "..." : "")
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        parts.append("[options]")
        return parts.joined(separator: " ")
    }

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}

/// Options that several commands share, declared once.
public enum CommonOptions {
    public static let help = OptionSpec("help", short: "h", help: "Show help for this command.")
    public static let store = OptionSpec("store", value: "DIR", help: "The store directory (default: $ENTITLEMENT_STORE, then $XDG_DATA_HOME/entitlement/store).")
    public static let json = OptionSpec("json", help: "Print JSON (see docs/json-output.md).")
    public static let at = OptionSpec("at", value: "DATE", help: "Evaluate at this ISO 8601 date instead of now.")
    public static let environment = OptionSpec("environment", value: "ENV", help: "Count transactions from production, sandbox or any (default: any).")
    public static let profileID = OptionSpec("profile-id", value: "ID", help: "Find the profile by its profile_id instead of USER.")
    public static let lockTimeout = OptionSpec("lock-timeout", value: "SECONDS", help: "Wait at most this long for the store's writer lock (default: $ENTITLEMENT_LOCK_TIMEOUT, then 10).")
    public static let dryRun = OptionSpec("dry-run", help: "Show what would change; write nothing.")
    public static let reason = OptionSpec("reason", value: "TEXT", help: "Why: recorded in the audit trail.")
    public static let actor = OptionSpec("actor", value: "NAME", help: "Who: recorded in the audit trail (default: $ENTITLEMENT_ACTOR, then the login name).")
}
