import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// `entitlement migrate --layout L`: move every profile (and index entry) to another layout.
struct MigrateCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "migrate",
        abstract: "Move every profile file to another layout (flat or fanout).",
        discussion: """
            fanout puts each profile two folders down (profiles/3f/a2/NAME.json), which keeps a team
            store's commits fast at a million profiles; flat is one folder. Files are renamed, never
            rewritten; config.json records the layout. In a team store it is one commit. If it is
            interrupted, run it again. See docs/store-format.md.
            """,
        options: [
            layoutOption, CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout, CommonOptions.json,
        ],
        examples: ["entitlement migrate --layout fanout --store ./store"])

    static let layoutOption = Option<ProfileLayout>.choice("layout", value: "L", help: "flat or fanout.")

    var layout: ProfileLayout
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        guard let layout = try parsed.value(Self.layoutOption) else { throw .usage("missing --layout (flat or fanout).", command: Self.spec.name) }
        self.layout = layout
        options = try MutationOptions(parsed)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let change = ChangeDescription(summary: "migrate profiles to the \(layout.rawValue) layout", actor: try options.resolvedActor(context, store: store))
        let moved = try LayoutMigration.migrate(store, to: layout, change: change)
        if options.json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([("layout", .string(layout.rawValue)), ("moved_files", .int(moved))]))))
        } else {
            context.stdout.write("Store \(Terminal.escape(store.root)) uses the \(layout.rawValue) layout; moved \(moved) file\(moved == 1 ? "" : "s").\n")
        }
        return .success
    }
}
