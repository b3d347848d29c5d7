/// `entitlement init`: create an empty store with a product configuration.
public struct InitCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "init",
        abstract: "Create an empty store with a product configuration.",
        discussion: """
            The configuration holds 'premium', or the entitlements named with --entitlement. Map
            products to entitlements by editing config.json (see docs/store-format.md). Never
            overwrites an existing store. With --git, the store is also a git repository (a team
            store, see docs/team-store.md) in the fanout layout, with its first commit made; on an
            existing plain store, --git keeps every file and the layout, and commits them all.
            """,
        options: [
            CommonOptions.store,
            OptionSpec("entitlement", value: "ID", repeatable: true, help: "An entitlement to configure (repeatable; default: premium)."),
            OptionSpec("git", help: "Make it a team store: a git repository; converts an existing plain store."),
            CommonOptions.actor,
            CommonOptions.json,
        ],
        examples: ["entitlement init --store ./store", "entitlement init --store ./store --entitlement premium --entitlement sports",
                   "entitlement init --git --store ./team-store"])

    public var store: String?
    public var entitlements: [String]
    public var git: Bool
    public var actor: String?
    public var json: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = parsed.value("store")
        var ids: [String] = []
        for id in parsed.allValues("entitlement") {
            guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .usage("invalid entitlement id '\(Terminal.escape(id))': use non-empty text without control characters.", command: Self.spec.name)
            }
            if !ids.contains(id) { ids.append(id) }
        }
        entitlements = ids.isEmpty ? [CheckCommand.defaultEntitlement] : ids
        git = parsed.flag("git")
        actor = try OptionValues.text(parsed, "actor", command: Self.spec.name)
        if actor != nil, !git { throw .usage("--actor is only for --git: it names the author of the first commit.", command: Self.spec.name) }
        json = parsed.flag("json")
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        if git, FileSystem.exists(store.configPath), !GitRepository.isRepository(store.root) {
            return try convertToTeamStore(store, context: context)
        }
        if FileSystem.exists(store.configPath) { throw .storeExists(path: store.root) }
        if FileSystem.exists(store.root), !FileSystem.isDirectory(store.root) {
            throw .io(path: store.root, message: "exists and is not a directory")
        }
        try FileSystem.makeDirectory(store.root)
        try FileSystem.makeDirectory("\(store.root)/\(EntitlementStore.profilesDirectory)")
        var configuration = ProductConfiguration(entitlements: entitlements.map { ProductConfiguration.Entitlement(id: $0) })
        if git { configuration.profileLayout = .fanout }
        try store.withWriteLockCreatingStore { () throws(EntitlementError) in
            if FileSystem.exists(store.configPath) { throw .storeExists(path: store.root) }
            try store.saveConfiguration(configuration)
            if git {
                try GitSetup.initialize(store, actor: try teamActor(store, context: context),
                                        summary: "create store with entitlements \(entitlements.joined(separator: ", "))", environment: context.environment)
            }
        }
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("store", .string(store.root)), ("entitlements", .array(entitlements.map(JSONValue.string))),
            ]))))
        } else {
            context.stdout.write("Created store at \(Terminal.escape(store.root)) with entitlements: \(entitlements.map(Terminal.escape).joined(separator: ", ")).\n")
            context.stdout.write("Map products to entitlements in \(Terminal.escape(store.configPath)).\n")
            if git { context.stdout.write("It is a team store (git); share it with 'git remote add origin URL' and 'entitlement sync'.\n") }
        }
        return .success
    }

    /// `init --git` on a plain store: every file kept and committed, the layout unchanged.
    private func convertToTeamStore(_ store: EntitlementStore, context: Context) throws(EntitlementError) -> ExitCode {
        let actor = try teamActor(store, context: context)
        try store.withWriteLock { () throws(EntitlementError) in
            _ = try store.loadConfiguration()
            try GitSetup.initialize(store, actor: actor, summary: "make the store a team store", environment: context.environment)
        }
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([("store", .string(store.root)), ("converted", .bool(true))]))))
        } else {
            context.stdout.write("Made \(Terminal.escape(store.root)) a team store (git); every file is in its first commit.\n")
            if store.layout == .flat {
                context.stdout.write("For a large store, 'entitlement migrate --layout fanout' keeps commits fast.\n")
            }
        }
        return .success
    }

    /// The first commit's author: --actor, $ENTITLEMENT_ACTOR, git's user, the login name.
    private func teamActor(_ store: EntitlementStore, context: Context) throws(EntitlementError) -> String {
        if let actor { return actor }
        if let actor = context.environment["ENTITLEMENT_ACTOR"], !actor.trimmingWhitespace.isEmpty { return actor }
        if GitRepository.isRepository(store.root), let identity = try GitRepository(root: store.root, environment: context.environment).userIdentity() {
            return identity.description
        }
        if let identity = try GitRepository(root: ".", environment: context.environment).globalIdentity() { return identity.description }
        return context.loginName() ?? "unknown"
    }
}

extension EntitlementStore {
    /// The writer lock for `init`, before `config.json` exists.
    func withWriteLockCreatingStore(_ body: () throws(EntitlementError) -> Void) throws(EntitlementError) {
        try StoreLock(path: "\(root)/\(Self.lockFileName)", timeout: lockTimeout).withLock(body)
    }
}
