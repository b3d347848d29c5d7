/// The `case` arms the bash and zsh scripts share, generated once from the declarations.
/// The two shells read the same patterns; zsh writes each arm with an opening parenthesis,
/// which `open` carries (`"("` for zsh, `""` for bash).
enum CaseArms {
    /// An option's spellings: `--name`, and `-x` when it has a short name.
    static func names(_ option: OptionSpec) -> [String] {
        ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
    }

    /// Every spelling of an option that takes a value (the next word is its value, not a command).
    static func valueOptionPattern(_ specs: [CommandSpec]) -> String {
        let options = specs.flatMap { $0.options.filter(\.takesValue) } + GlobalOptions.movable.map(\.spec).filter(\.takesValue)
        return Set(options.flatMap(names)).sorted().joined(separator: "|")
    }

    /// `case "$command $prev" in … esac`: completes the value of the option just typed.
    static func optionValues(_ specs: [CommandSpec], open: String, call: (ValueKind?) -> String) -> String {
        let q = ShellQuote.posix
        var out = "    case \"$command $prev\" in\n"
        for option in GlobalOptions.movable.map(\.spec) where option.takesValue {
            out += "        \(open)\(q(" --\(option.name)"))) \(call(option.kind)); return ;;\n"
        }
        for spec in specs {
            for option in spec.options where option.takesValue {
                let patterns = names(option).map { q("\(spec.name) \($0)") }.joined(separator: "|")
                out += "        \(open)\(patterns)) \(call(option.kind)); return ;;\n"
            }
        }
        return out + "    esac\n"
    }

    /// The arms of `case <number of positionals> in`: the argument at each position (a
    /// variadic last argument takes every later one).
    static func positionals(_ spec: CommandSpec, open: String, call: (ValueKind?) -> String) -> String {
        var out = ""
        for (index, argument) in spec.arguments.enumerated() {
            let pattern = argument.isVariadic && index == spec.arguments.count - 1 ? "*" : "\(index)"
            out += "                \(open)\(pattern)) \(call(argument.kind)) ;;\n"
        }
        return out
    }
}
