import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementIngest
import EntitlementModel
import EntitlementStore

/// `entitlement lookup ORDER_ID`: which App Store transactions an order ID from Apple's e-mail
/// receipt holds, and which customer holds them here; `--import` applies them (docs/commands.md,
/// "lookup").
struct LookupCommand: RunnableCommand, Equatable {
    /// The vendors with an order look-up: the App Store only.
    /// The vendors whose order IDs `lookup` reads: Apple's Look Up Order ID is the one API.
    static let lookupVendors: [Vendor] = [.appstore]

    static let spec = CommandSpec(
        name: "lookup",
        abstract: "Look up an App Store order ID from a customer's receipt; optionally import it.",
        discussion: """
            Asks Apple's Look Up Order ID (GET /inApps/v1/lookup/{orderId}) through curl, with a JWT
            signed by appstore.private_key_file (never on a command line). Prints each transaction
            of the order (product, dates, original transaction id) and the customer here that holds
            it, found by appAccountToken or by the original transaction. Every signed transaction is
            verified as 'import' verifies it. --import applies them, through the webhook's ledger, to
            that customer, or to --user when no customer holds them yet. Exit 3 when Apple knows no
            such order for this app, 2 for missing credentials, 6 when the API cannot be reached, 4
            for a refused key or an answer that fails verification.
            """,
        usage: "ORDER_ID [--vendor appstore] [--import [--user USER]] [--json] [options]",
        arguments: [ArgumentSpec("ORDER_ID", kind: .text, help: "The order ID on Apple's e-mail receipt (e.g. MK5TTTVWJH).")],
        options: [
            vendorOption, importFlag, userOption, AppStoreAPIRun.apiBaseOption, RefreshCommand.timeoutOption, WebhookCommand.secretsOption,
            CommonOptions.json, CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement lookup MK5TTTVWJH",
            "entitlement lookup MK5TTTVWJH --import --user alice@example.com",
        ])

    static let vendorOption = Option<Vendor>.choice("vendor", value: "V", among: lookupVendors, help: "Whose order ID: appstore (the only one).")
    static let importFlag = Flag("import", help: "Apply the order's transactions to the customer holding them (or --user).")
    static let userOption = Option<String>.string("user", value: "USER", kind: .userID, help: "With --import: the customer when no one holds them yet.")

    var orderID: String
    var importing: Bool
    var user: String?
    var apiBase: String?
    var timeout: Double
    var secrets: String?
    var json: Bool
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        guard parsed.positionals.count == 1 else {
            throw .usage(parsed.positionals.isEmpty ? "missing argument ORDER_ID." : "lookup takes one ORDER_ID.", command: name)
        }
        orderID = parsed.positionals[0].trimmingWhitespace
        guard !orderID.isEmpty, VendorAPIClientSafe.isSafe(orderID) else {
            throw .usage("ORDER_ID must be the order ID of Apple's receipt, got '\(Terminal.escape(parsed.positionals[0]))'.", command: name)
        }
        _ = try parsed.value(Self.vendorOption)
        importing = parsed.flag(Self.importFlag)
        user = try parsed.value(Self.userOption).map { (text) throws(EntitlementError) in try UserID.argument(text, command: name) }
        if user != nil, !importing { throw .usage("--user goes with --import.", command: name) }
        apiBase = try parsed.value(AppStoreAPIRun.apiBaseOption)
        timeout = try parsed.value(RefreshCommand.timeoutOption)
        guard timeout > 0 else { throw .usage("--timeout must be more than 0 seconds.", command: name) }
        secrets = try parsed.value(WebhookCommand.secretsOption)
        json = parsed.flag(CommonOptions.json)
        options = MutationOptions(store: try parsed.value(CommonOptions.store), actor: try parsed.value(CommonOptions.actor))
        options.lockTimeout = try parsed.given(CommonOptions.lockTimeout)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        try store.requireExists()
        let session = try AppStoreAPIRun.session(store: store, secretsFlag: secrets, apiBase: apiBase, timeout: timeout, context: context)
        let found = try AppStoreLookup(session: session).lookup(orderID)
        for warning in found.answer.document.warnings { context.warning(warning) }
        var imported: (user: String, report: IngestReport)?
        if importing {
            guard let target = found.holder ?? user else {
                let holders = Set(found.items.compactMap(\.holder))
                throw .usage(holders.count > 1 ? "the order's transactions are held by \(holders.count) customers; import them one by one."
                             : "no customer here holds the order's transactions: name one with --user USER.", command: Self.spec.name)
            }
            if let user, let holder = found.holder, user != holder {
                context.warning("the order's transactions are held by \(Terminal.escape(holder)); imported there, not into \(Terminal.escape(user))")
            }
            let runner = session.runner(actor: try options.resolvedActor(context, store: store))
            var prepared: [(unit: IngestUnit, parsed: IngestRunner.ParsedUnit)] = []
            if let event = found.answer.event(customer: target, type: "Look Up Order ID", now: context.now()) {
                prepared.append((found.answer.unit(receivedAt: context.now()), .events([event])))
            }
            let report = try runner.run(prepared: prepared)
            for problem in report.problems { context.stderr.write("\(problem)\n") }
            imported = (target, report)
        }
        LookupReport.write(found, imported: imported, json: json, to: context.stdout, quiet: context.quiet)
        return imported?.report.exitCode ?? .success
    }
}

/// An order ID goes into a URL path segment (percent-encoded) and a header-free request: no control characters.
enum VendorAPIClientSafe {
    static func isSafe(_ text: String) -> Bool { VendorAPIClient.isHeaderSafe(text) && text.utf8.count <= 64 }
}
