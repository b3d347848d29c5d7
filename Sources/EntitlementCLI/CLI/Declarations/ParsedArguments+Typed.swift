import EntitlementModel

/// Typed reads of a parsed command line, through the options' own declarations.
extension ParsedArguments {
    /// The option's value if given, typed by its parser; a refused value is a usage error.
    func value<Value>(_ option: Option<Value>) throws(EntitlementError) -> Value? {
        guard let text = values[option.spec.name]?.last else { return nil }
        return try typed(option, text)
    }

    /// Every value of a repeatable option, in order.
    func values<Value>(_ option: Option<Value>) throws(EntitlementError) -> [Value] {
        var result: [Value] = []
        for text in values[option.spec.name] ?? [] { result.append(try typed(option, text)) }
        return result
    }

    /// The option's value if given, else its default (no environment variable is read here).
    func value<Value>(_ option: DefaultedOption<Value>) throws(EntitlementError) -> Value {
        try value(option.option) ?? option.defaultValue
    }

    /// The option's value only if given on the command line (its environment variable and
    /// default are resolved at run time, where the environment is known).
    func given<Value>(_ option: DefaultedOption<Value>) throws(EntitlementError) -> Value? {
        try value(option.option)
    }

    func flag(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// Whether the option or flag appears on the command line at all.
    func isGiven(_ option: any OptionDeclaration) -> Bool {
        values[option.spec.name] != nil || flags.contains(option.spec.name)
    }

    private func typed<Value>(_ option: Option<Value>, _ text: String) throws(EntitlementError) -> Value {
        if let relative = option.parseRelative, let now, let value = relative(text, now) { return value }
        do {
            return try option.parse(text, .option(option.spec.name))
        } catch {
            throw .usage(error.message, hint: error.hint, command: command)
        }
    }
}

extension DefaultedOption {
    /// `resolve(given:environment:)` for a command: a refused environment value is a usage error.
    func resolve(given: Value?, environment: [String: String], command: String) throws(EntitlementError) -> Value {
        do {
            return try resolve(given: given, environment: environment)
        } catch {
            throw .usage(error.message, hint: error.hint, command: command)
        }
    }
}
