import FoundationEssentials

/// Turns option strings into typed values, with usage errors that say what is expected.
enum OptionValues {
    static func date(_ text: String, option: String, command: String) throws(EntitlementError) -> Date {
        guard let date = ISODate.parse(text) else {
            throw .usage("invalid date for --\(option): '\(Terminal.escape(text))'.",
                         hint: "Use ISO 8601, for example 2026-01-15T12:00:00Z, 2026-01-15T13:00:00+01:00 or 2026-01-15.", command: command)
        }
        return date
    }

    static func optionalDate(_ parsed: ParsedArguments, _ option: String, command: String) throws(EntitlementError) -> Date? {
        guard let text = parsed.value(option) else { return nil }
        return try date(text, option: option, command: command)
    }

    static func environment(_ parsed: ParsedArguments, command: String) throws(EntitlementError) -> EnvironmentFilter {
        guard let text = parsed.value("environment") else { return .any }
        guard let filter = EnvironmentFilter(rawValue: text) else {
            let suggestion = Suggestion.closest(to: text, in: EnvironmentFilter.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
            throw .usage("invalid value for --environment: '\(Terminal.escape(text))'; expected production, sandbox or any.\(suggestion)", command: command)
        }
        return filter
    }

    /// A lock timeout in seconds, 0 or more; `source` says what was invalid ("value for --lock-timeout").
    static func seconds(_ text: String, source: String, command: String) throws(EntitlementError) -> Double {
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw .usage("invalid \(source): '\(Terminal.escape(text))'; expected seconds, 0 or more.", command: command)
        }
        return seconds
    }

    /// `--lock-timeout` (already parsed), else `$ENTITLEMENT_LOCK_TIMEOUT`, else the default.
    static func lockTimeout(flag: Double?, environment: [String: String], command: String) throws(EntitlementError) -> Double {
        if let flag { return flag }
        if let text = environment["ENTITLEMENT_LOCK_TIMEOUT"], !text.isEmpty {
            return try seconds(text, source: "ENTITLEMENT_LOCK_TIMEOUT", command: command)
        }
        return EntitlementStore.defaultLockTimeout
    }

    /// A user id from the command line: any non-empty text of at most 4096 bytes.
    static func userID(_ text: String, command: String) throws(EntitlementError) -> String {
        guard !text.isEmpty else { throw .usage("the user id must not be empty.", command: command) }
        guard text.utf8.count <= 4096 else { throw .usage("the user id is longer than 4096 bytes.", command: command) }
        return text
    }

    /// A free-text audit value (reason, actor): given means non-empty.
    static func text(_ parsed: ParsedArguments, _ option: String, command: String) throws(EntitlementError) -> String? {
        guard let text = parsed.value(option) else { return nil }
        guard !text.trimmingWhitespace.isEmpty else {
            throw .usage("option '--\(option)' needs a non-empty value.", command: command)
        }
        return text
    }
}

/// How a command names its profile: by customer user id or by `profile_id`.
public enum ProfileLookup: Equatable, Sendable {
    case user(String)
    case profileID(String)

    /// For messages: the id as given.
    public var displayName: String {
        switch self {
        case .user(let id): return id
        case .profileID(let id): return "profile_id \(id)"
        }
    }

    /// USER from the first positional, or `--profile-id`; not both.
    static func parse(_ parsed: ParsedArguments, positionalIndex: Int = 0, command: String) throws(EntitlementError) -> (ProfileLookup, remaining: [String]) {
        var positionals = parsed.positionals
        if let profileID = parsed.value("profile-id") {
            guard !profileID.isEmpty else { throw .usage("--profile-id must not be empty.", command: command) }
            return (.profileID(profileID), positionals)
        }
        guard positionals.count > positionalIndex else { throw .usage("missing argument USER.", command: command) }
        let user = try OptionValues.userID(positionals.remove(at: positionalIndex), command: command)
        return (.user(user), positionals)
    }

    func load(from store: EntitlementStore) throws(EntitlementError) -> Profile? {
        switch self {
        case .user(let id): return try store.loadProfile(userID: id)
        case .profileID(let id): return try store.loadProfile(profileID: id)
        }
    }
}

extension ProfileLookup {
    /// USER or `--profile-id`, and nothing else (status, history).
    static func parseOnly(_ parsed: ParsedArguments, command: String) throws(EntitlementError) -> ProfileLookup {
        let (lookup, rest) = try parse(parsed, command: command)
        guard rest.isEmpty else { throw .usage("unexpected argument '\(Terminal.escape(rest[0]))'.", command: command) }
        return lookup
    }

    /// Exit 3, naming what was looked for.
    var notFoundError: EntitlementError {
        switch self {
        case .user(let id): return .unknownUser(id)
        case .profileID(let id): return .notFound("no profile with profile_id '\(Terminal.escape(id))'")
        }
    }
}
