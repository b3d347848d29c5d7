import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `entitlement __complete users|entitlements PREFIX`: candidates for the completion scripts.
///
/// Hidden plumbing. One candidate per line, at most `limit`; never opens a profile, and
/// answers customer ids from `CompletionCache` when it can, so it answers fast on a store
/// of a million profiles. Output is data for the shell: ids with a control character
/// (which cannot be offered as one word) or a bidirectional-text control (which would
/// reorder the line the user is typing) are left out, as `UserID` refuses them for new ids.
struct CompleteCommand: RunnableCommand, Equatable {
    enum Kind: String, CaseIterable, Sendable { case users, entitlements }

    static let spec = CommandSpec(
        name: "__complete",
        abstract: "Completion candidates (used by the completion scripts).",
        arguments: [
            ArgumentSpec("KIND", kind: .choice(Kind.allCases.map(\.rawValue)), help: "users or entitlements."),
            ArgumentSpec("PREFIX", kind: .text, optional: true, help: "What has been typed so far."),
        ],
        options: [CommonOptions.store],
        hidden: true)

    /// More candidates than a person reads; the shell shows them all at once.
    static let limit = 200

    var kind: Kind
    var prefix: String
    var store: String?

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        guard let kind = Kind(rawValue: parsed.positionals[0]) else {
            throw .usage("unknown kind '\(Terminal.escape(parsed.positionals[0]))'; expected users or entitlements.", command: Self.spec.name)
        }
        self.kind = kind
        prefix = parsed.positionals.count > 1 ? parsed.positionals[1] : ""
        store = try parsed.value(CommonOptions.store)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let candidates: [String]
        switch kind {
        case .users: candidates = try userIDs(in: store, context: context)
        case .entitlements: candidates = try store.loadConfiguration().entitlementIDs.filter { $0.hasPrefix(prefix) }
        }
        var out = ""
        for candidate in candidates.prefix(Self.limit) where !candidate.unicodeScalars.contains(where: UserID.isInvisibleControl) {
            out += candidate + "\n"
        }
        context.stdout.write(out)
        return .success
    }

    /// From the completion cache when it can answer, else from a listing of the store.
    private func userIDs(in store: EntitlementStore, context: Context) throws(EntitlementError) -> [String] {
        try store.requireExists()
        if let namePrefix = ProfileFileName.escapedWithoutHashing(prefix),
           let cache = CompletionCache(environment: context.environment, now: context.now().timeIntervalSince1970),
           let ids = cache.userIDs(in: store, namePrefix: Array(namePrefix.utf8), limit: Self.limit) {
            return ids
        }
        return try store.userIDs(withPrefix: prefix, limit: Self.limit)
    }
}
