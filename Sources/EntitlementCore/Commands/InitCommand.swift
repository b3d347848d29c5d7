/// `entitlement init`: create an empty store with a product configuration.
public struct InitCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "init",
        abstract: "Create an empty store with a product configuration.",
        discussion: "The configuration holds 'premium', or the entitlements named with --entitlement. Map products to entitlements by editing config.json (see docs/store-format.md). Never overwrites an existing store.",
        options: [
            CommonOptions.store,
            entitlementOption,
            CommonOptions.json,
        ],
        examples: ["entitlement init --store ./store", "entitlement init --store ./store --entitlement premium --entitlement sports"])

    /// Repeatable; the default is the one entitlement `check` looks at when none is named.
    static let entitlementOption = Option<String>("entitlement", value: "ID", kind: .entitlementID, repeatable: true,
                                                   help: "An entitlement to configure.") { (id, _) throws(ValueProblem) in
        guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ValueProblem("invalid entitlement id '\(Terminal.escape(id))': use non-empty text without control characters.")
        }
        return id
    }.describingDefault(CheckCommand.defaultEntitlement)

    public var store: String?
    public var entitlements: [String]
    public var json: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = try parsed.value(CommonOptions.store)
        var ids: [String] = []
        for id in try parsed.values(Self.entitlementOption) where !ids.contains(id) { ids.append(id) }
        entitlements = ids.isEmpty ? [CheckCommand.defaultEntitlement] : ids
        json = parsed.flag(CommonOptions.json)
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        try store.createDirectories()
        let configuration = ProductConfiguration(entitlements: entitlements.map { ProductConfiguration.Entitlement(id: $0) })
        try store.withWriteLockCreatingStore { () throws(EntitlementError) in
            if store.fileSystem.exists(store.configPath) { throw .storeExists(path: store.root) }
            try store.saveConfiguration(configuration)
        }
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("store", .string(store.root)), ("entitlements", .array(entitlements.map(JSONValue.string))),
            ]))))
        } else {
            context.stdout.write("Created store at \(Terminal.escape(store.root)) with entitlements: \(entitlements.map(Terminal.escape).joined(separator: ", ")).\n")
            context.stdout.write("Map products to entitlements in \(Terminal.escape(store.configPath)).\n")
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
