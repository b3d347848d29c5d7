/// A command's declaration: name, abstract, arguments and options, declared once.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var discussion: String?
    /// The usage line after `entitlement NAME`, when the generated one is not clear enough.
    var usage: String?
    var arguments: [ArgumentSpec]
    var options: [OptionSpec]
    var examples: [String]
    /// Plumbing for the completion scripts: left out of help, completions and the man page.
    var isHidden = false

    init(name: String, abstract: String, discussion: String? = nil, usage: String? = nil,
         arguments: [ArgumentSpec] = [], options: [any OptionDeclaration], examples: [String] = [], hidden: Bool = false) {
        isHidden = hidden
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        // Every command takes -q, --color and -h, declared once here.
        let everywhere: [any OptionDeclaration] = [CommonOptions.quiet, CommonOptions.color, CommonOptions.help]
        let declared = Set(options.map(\.spec.name))
        self.options = (options + everywhere.filter { !declared.contains($0.spec.name) }).map(\.spec)
        self.examples = examples
    }

    var usageLine: String {
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

