import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// `entitlement path USER`: the profile file a user id maps to, for hand-written fixtures.
struct PathCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "path",
        abstract: "Print the profile file that holds a user id (for writing fixtures by hand).",
        discussion: "The file need not exist. The naming rule is in docs/store-format.md.",
        arguments: [ArgumentSpec("USER", kind: .userID, help: "The customer user id.")],
        options: [CommonOptions.store, CommonOptions.json])

    var user: String
    var store: String?
    var json: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        user = try UserID.argument(parsed.positionals[0], command: Self.spec.name)
        store = try parsed.value(CommonOptions.store)
        json = parsed.flag(CommonOptions.json)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let path = context.store(flag: store).profilePath(for: user)
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([("customer_user_id", .string(user)), ("path", .string(path))]))))
        } else {
            context.stdout.write(Terminal.escape(path) + "\n")
        }
        return .success
    }
}
