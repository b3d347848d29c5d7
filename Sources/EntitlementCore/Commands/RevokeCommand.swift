import FoundationEssentials

/// `entitlement revoke USER ENTITLEMENT`: take back manual access; history keeps it all.
public struct RevokeCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "revoke",
        abstract: "Revoke manual grants of an entitlement (and, with --include-store, store purchases).",
        discussion: """
            Sets revoked_at on every active or scheduled manual grant of ENTITLEMENT, and records
            the actor and reason. Nothing is deleted. Without --include-store, access that comes
            from a store purchase stays, and the command says which purchase keeps it.
            """,
        arguments: [
            ArgumentSpec("USER", help: "The customer user id."),
            ArgumentSpec("ENTITLEMENT", help: "The entitlement to revoke."),
        ],
        options: [
            OptionSpec("transaction", value: "ID", help: "Revoke only this transaction."),
            OptionSpec("include-store", help: "Also revoke store purchases (for refunds handled outside the store)."),
        ] + MutationOptions.specs,
        examples: [
            "entitlement revoke alice@example.com premium --reason 'Granted by mistake'",
            "entitlement revoke alice@example.com premium --include-store --reason 'Refunded by support, ticket 981'",
        ])

    public var userID: String
    public var request: RevokeRequestOptions
    var options: MutationOptions

    /// The parsed parts of a revoke request; the actor is resolved at run time.
    public struct RevokeRequestOptions: Equatable, Sendable {
        public var entitlement: String
        public var transactionID: String?
        public var includeStore: Bool
        public var reason: String?
    }

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        userID = try OptionValues.userID(parsed.positionals[0], command: name)
        let entitlement = parsed.positionals[1]
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        let transactionID = parsed.value("transaction")
        if transactionID?.isEmpty == true { throw .usage("--transaction must not be empty.", command: name) }
        request = RevokeRequestOptions(entitlement: entitlement, transactionID: transactionID, includeStore: parsed.flag("include-store"),
                                       reason: try OptionValues.text(parsed, "reason", command: name))
        options = try MutationOptions(parsed, command: name)
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let engine = StatusEngine(configuration: try store.loadConfiguration())
        let now = context.now()
        let revokeRequest = RevokeRequest(entitlement: request.entitlement, transactionID: request.transactionID, includeStore: request.includeStore,
                                          reason: request.reason, actor: try options.resolvedActor(context, store: store))
        let apply = { () throws(EntitlementError) -> (Profile, [String]) in
            guard let profile = try store.loadProfile(userID: userID) else { throw .unknownUser(userID) }
            try Self.requireKnown(request.entitlement, in: profile, engine: engine, configPath: store.configPath)
            let (changed, revoked) = try RevokePlanner.apply(revokeRequest, to: profile, engine: engine, now: now)
            if !revoked.isEmpty, !options.dryRun { try store.saveProfile(changed) }
            return (changed, revoked)
        }
        let (profile, revoked) = options.dryRun ? try apply() : try store.withWriteLock(ChangeDescription(summary: ChangeSummary.revoke(revokeRequest, userID: userID), actor: revokeRequest.actor), apply)
        let level = engine.evaluate(request.entitlement, for: profile, at: now).accessLevel
        // A store product may unlock more than the entitlement named; say what else it took.
        var alsoAffected: [String] = []
        for id in revoked {
            guard let productID = profile.transaction(id: id)?.productID else { continue }
            for other in engine.configuration.entitlements(unlockedBy: productID) where other != request.entitlement && !alsoAffected.contains(other) {
                alsoAffected.append(other)
            }
        }
        MutationReport.revoke(profile: profile, revoked: revoked, level: level, alsoAffected: alsoAffected, dryRun: options.dryRun,
                              json: options.json, at: now, context: context)
        return .success
    }

    /// A typo must not pass as "nothing to revoke": the entitlement must be configured
    /// or named by a manual grant in this profile.
    static func requireKnown(_ entitlement: String, in profile: Profile, engine: StatusEngine, configPath: String) throws(EntitlementError) {
        let known = engine.entitlementIDs(for: profile)
        guard !known.contains(entitlement) else { return }
        let suggestion = Suggestion.closest(to: entitlement, in: known).map { " Did you mean '\(Terminal.escape($0))'?" } ?? ""
        throw .usage("entitlement '\(Terminal.escape(entitlement))' is not in the product configuration.\(suggestion)",
                     hint: "Configured: \(known.map(Terminal.escape).joined(separator: ", ")) (\(Terminal.escape(configPath))).", command: spec.name)
    }
}
