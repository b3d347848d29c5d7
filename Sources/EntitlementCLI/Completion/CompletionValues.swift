/// What a shell offers for a value of a given kind: the link between `ValueKind` in the
/// declarations and the completion scripts.
enum CompletionValues: Equatable {
    /// Customer user ids from the store (`entitlement __complete users PREFIX`).
    case users
    /// Entitlement ids from the store's config.json (`entitlement __complete entitlements PREFIX`).
    case entitlements
    case files
    case directories
    /// A fixed list of words.
    case words([String])
    /// Nothing to offer (free text, numbers, ids the store does not index).
    case nothing

    /// Words offered for dates, besides ISO 8601 and offsets such as -3d.
    static let dateWords = ["now", "today", "yesterday", "tomorrow"]

    init(_ kind: ValueKind) {
        switch kind {
        case .userID: self = .users
        case .entitlementID: self = .entitlements
        case .file: self = .files
        case .directory: self = .directories
        case .date: self = .words(Self.dateWords)
        case .choice(let names): self = .words(names)
        case .profileID, .transactionID, .duration, .seconds, .count, .text: self = .nothing
        }
    }

    /// The positional argument at `index` (0-based, options not counted), if the command has one there.
    static func argument(_ spec: CommandSpec, at index: Int) -> ArgumentSpec? {
        if index < spec.arguments.count { return spec.arguments[index] }
        return spec.arguments.last.flatMap { $0.isVariadic ? $0 : nil }
    }
}

extension CommandSpec {
    /// The commands a completion script or the man page offers: every one not hidden.
    static var visible: [CommandSpec] { Command.specs.filter { !$0.isHidden } }
}

/// Quoting for generated shell scripts.
enum ShellQuote {
    /// `text` in single quotes for bash and zsh: a quote is closed, escaped and reopened.
    static func posix(_ text: String) -> String {
        var out = "'"
        for character in text { out += character == "'" ? "'\\''" : String(character) }
        return out + "'"
    }

    /// `text` in single quotes for fish, where backslash and quote are escaped inside.
    static func fish(_ text: String) -> String {
        var out = "'"
        for character in text {
            if character == "'" || character == "\\" { out += "\\" }
            out.append(character)
        }
        return out + "'"
    }
}
