import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// How a command names its profile: by customer user id or by `profile_id`.
enum ProfileLookup: Equatable, Sendable {
    case user(String)
    case profileID(String)

    /// For messages: the id as given.
    var displayName: String {
        switch self {
        case .user(let id): return id
        case .profileID(let id): return "profile_id \(id)"
        }
    }

    /// USER from the first positional, or `--profile-id`; not both.
    static func parse(_ parsed: ParsedArguments, positionalIndex: Int = 0) throws(EntitlementError) -> (ProfileLookup, remaining: [String]) {
        var positionals = parsed.positionals
        if let profileID = try parsed.value(CommonOptions.profileID) {
            return (.profileID(profileID), positionals)
        }
        guard positionals.count > positionalIndex else { throw .usage("missing argument USER.", command: parsed.command) }
        let user = try UserID.argument(positionals.remove(at: positionalIndex), command: parsed.command)
        return (.user(user), positionals)
    }

    /// The profile; a user id that no profile has may be another customer's alias (RevenueCat
    /// `aliases`), found through the alias index: the profile returned then names the canonical customer.
    func load(from store: EntitlementStore) throws(EntitlementError) -> Profile? {
        switch self {
        case .user(let id): return try store.loadProfile(userIDOrAlias: id)
        case .profileID(let id): return try store.loadProfile(profileID: id)
        }
    }
}

extension ProfileLookup {
    /// USER or `--profile-id`, and nothing else (status, history).
    static func parseOnly(_ parsed: ParsedArguments) throws(EntitlementError) -> ProfileLookup {
        let (lookup, rest) = try parse(parsed)
        guard rest.isEmpty else { throw .usage("unexpected argument '\(Terminal.escape(rest[0]))'.", command: parsed.command) }
        return lookup
    }

    /// Exit 3, naming what was looked for.
    var notFoundError: EntitlementError {
        switch self {
        case .user(let id): return .unknownUser(id)
        case .profileID(let id): return .unknownProfileID(id)
        }
    }

    /// `notFoundError` with a near stored id for its hint ("Did you mean …?"): for the miss
    /// path of status, history and check --strict, which pays for listing the file names.
    func notFoundError(in store: EntitlementStore) -> EntitlementError {
        guard case .user(let id) = self else { return notFoundError }
        return .unknownUser(id, suggestion: store.nearUserID(to: id))
    }
}

extension UserID {
    /// A user id from the command line, by `validate`'s rules; a refusal is a usage error of `command`.
    static func argument(_ text: String, command: String) throws(EntitlementError) -> String {
        do {
            return try validate(text)
        } catch {
            throw .invalidUserID(error, command: command)
        }
    }
}
