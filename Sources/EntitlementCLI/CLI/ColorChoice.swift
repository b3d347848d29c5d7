/// `--color WHEN`: whether output is coloured.
enum ColorChoice: String, CaseIterable, Sendable {
    /// Colour on a terminal, unless `NO_COLOR` says otherwise (`CLICOLOR_FORCE` forces it).
    case auto
    case always
    case never
}
