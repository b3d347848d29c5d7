/// Options that stand in place of a command: `entitlement --help`, `entitlement -V`.
enum GlobalOptions {
    static let help = Flag("help", short: "h", help: "Show help.")
    static let version = Flag("version", short: "V", help: "Show the version.")

    /// In the order the main help lists them.
    static let all = [help, version]

    /// True when `argument` spells `flag` (`--version` or `-V`).
    static func matches(_ argument: String, _ flag: Flag) -> Bool {
        argument == "--\(flag.spec.name)" || flag.spec.short.map { argument == "-\($0)" } == true
    }
}
