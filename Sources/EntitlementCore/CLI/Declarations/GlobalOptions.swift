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

    /// True when `argument` spells `flag` (`--version` or `-V`).
    static func matches(_ argument: String, _ flag: Flag) -> Bool {
        argument == "--\(flag.spec.name)" || flag.spec.short.map { argument == "-\($0)" } == true
    }
}
