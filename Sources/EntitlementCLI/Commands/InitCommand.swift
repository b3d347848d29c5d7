import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `entitlement init`: create an empty store with a product configuration.
struct InitCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
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
            entitlementOption,
            gitFlag,
            CommonOptions.actor,
            CommonOptions.json,
        ],
        examples: ["entitlement init --store ./store", "entitlement init --store ./store --entitlement premium --entitlement sports",
                   "entitlement init --git --store ./team-store"])

    static let gitFlag = Flag("git", help: "Make it a team store: a git repository; converts an existing plain store.")

    /// Repeatable; the default is the one entitlement `check` looks at when none is named.
    static let entitlementOption = Option<String>("entitlement", value: "ID", kind: .entitlementID, repeatable: true,
                                                   help: "An entitlement to configure.") { (id, _) throws(ValueProblem) in
        guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ValueProblem("invalid entitlement id '\(Terminal.escape(id))': use non-empty text without control characters.")
        }
        return id
    }.describingDefault(CheckCommand.defaultEntitlement)

    var store: String?
    var entitlements: [String]
    var git: Bool
    var actor: String?
    var json: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = try parsed.value(CommonOptions.store)
        var ids: [String] = []
        for id in try parsed.values(Self.entitlementOption) where !ids.contains(id) { ids.append(id) }
        entitlements = ids.isEmpty ? [CheckCommand.defaultEntitlement] : ids
        git = parsed.flag(Self.gitFlag)
        actor = try parsed.value(CommonOptions.actor)
        if actor != nil, !git { throw .usage("--actor is only for --git: it names the author of the first commit.", command: Self.spec.name) }
        json = parsed.flag(CommonOptions.json)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        if git, store.fileSystem.exists(store.configPath), !GitRepository.isRepository(store.root) {
            return try convertToTeamStore(store, context: context)
        }
        try store.createDirectories()
        var configuration = ProductConfiguration(entitlements: entitlements.map { ProductConfiguration.Entitlement(id: $0) })
        if git { configuration.profileLayout = .fanout }
        try store.withWriteLockCreatingStore { () throws(EntitlementError) in
            if store.fileSystem.exists(store.configPath) { throw .storeExists(path: store.root) }
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
}

extension EntitlementStore {
    /// The writer lock for `init`, before `config.json` exists.
    func withWriteLockCreatingStore(_ body: () throws(EntitlementError) -> Void) throws(EntitlementError) {
        try lock.withLock { () throws(EntitlementError) in
            try recover()
            try body()
        }
    }
}
