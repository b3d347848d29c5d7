import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam
import EntitlementIngest

/// `entitlement refresh USER --vendor revenuecat`: re-reads a customer from the vendor's API.
package struct RefreshCommand: RunnableCommand, Equatable {
    /// The vendors whose API `refresh` reads.
    static let apiVendors: [Vendor] = [.revenuecat, .appstore]

    package static let spec = CommandSpec(
        name: "refresh",
        abstract: "Re-read a customer from the vendor's API and import the answer.",
        discussion: """
            Fetches GET {api-base}/v1/subscribers/{USER} through curl, with the API key from the
            secrets file's revenuecat.api_key (sent as a header, never on a command line), and
            imports the answer as 'import' imports a subscriber document, under the store lock.
            config.json is not changed. Exit 2 when there is no key, 6 when the API cannot be
            reached or does not answer in time, 4 for an answer other than 200 or a body that is
            not a subscriber, 5 when the store is busy. See docs/ingest.md, "refresh".
            App Store: for each original transaction id of the customer (and each --transaction),
            Get All Subscription Statuses and Get Transaction History, authenticated by a JWT signed
            with appstore.private_key_file; every signed answer is verified as 'import' verifies it
            and applied through the webhook's ledger, so nothing is applied twice.
            """,
        usage: "USER --vendor revenuecat|appstore [--transaction ID] [--api-base URL] [--timeout SECONDS] [options]",
        arguments: [ArgumentSpec("USER", kind: .userID, help: "The customer user id (RevenueCat's app_user_id).")],
        options: [
            vendorOption, transactionOption, apiBaseOption, timeoutOption, WebhookCommand.secretsOption, CommonOptions.json,
            CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement refresh alice@example.com --vendor revenuecat",
            "entitlement refresh alice --vendor revenuecat --api-base http://127.0.0.1:8080 --json",
            "entitlement refresh alice --vendor appstore --transaction 2000000123456789",
        ])

    static let vendorOption = Option<Vendor>.choice("vendor", value: "V", among: apiVendors, help: "Whose API to read: \(Vendor.phrase(apiVendors)).")
    static let transactionOption = Option<String>.string("transaction", value: "ID", kind: .transactionID, repeatable: true,
        help: "App Store: also ask about this original transaction id (a customer with none in the store yet).")
    static let apiBaseOption = Option<String>("api-base", value: "URL", kind: .text, help: "The API's address (for tests and proxies).") {
        (text, _) throws(ValueProblem) in
        guard text.hasPrefix("https://") || text.hasPrefix("http://"), VendorAPIClient.isHeaderSafe(text), !text.contains(" ") else {
            throw ValueProblem("--api-base must be an http:// or https:// URL, got '\(Terminal.escape(URLText.withoutCredentials(text)))'.")
        }
        return text
    }
    .describingDefault(SubscriberRefresh.defaultAPIBase)
    static let timeoutOption = Option<Double>.seconds("timeout", help: "Give up on the API after this long.")
        .withDefault(defaultTimeout, shown: formatSeconds(defaultTimeout))
    static let defaultTimeout = 30.0

    package var user: String
    var vendor: Vendor
    package var apiBase: String?
    package var timeout: Double
    package var secrets: String?
    package var transactions: [String]
    package var json: Bool
    var options: MutationOptions

    package init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        guard parsed.positionals.count == 1 else {
            throw .usage(parsed.positionals.isEmpty ? "missing argument USER." : "refresh takes one USER.", command: name)
        }
        user = try UserID.argument(parsed.positionals[0], command: name)
        guard let vendor = try parsed.value(Self.vendorOption) else {
            throw .usage("missing --vendor: name whose API to read (\(Vendor.phrase(Self.apiVendors))).", command: name)
        }
        self.vendor = vendor
        apiBase = try parsed.value(Self.apiBaseOption)
        timeout = try parsed.value(Self.timeoutOption)
        guard timeout > 0 else { throw .usage("--timeout must be more than 0 seconds.", command: name) }
        secrets = try parsed.value(WebhookCommand.secretsOption)
        transactions = try parsed.values(Self.transactionOption)
        if !transactions.isEmpty, vendor != .appstore { throw .usage("--transaction goes with --vendor appstore.", command: name) }
        json = parsed.flag(CommonOptions.json)
        options = MutationOptions(store: try parsed.value(CommonOptions.store), actor: try parsed.value(CommonOptions.actor))
        options.lockTimeout = try parsed.given(CommonOptions.lockTimeout)
    }

    package func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        try store.requireExists()
        if vendor == .appstore { return try runAppStore(store: store, context: context) }
        let refresher = SubscriberRefresh(store: store, client: VendorAPIClient(timeout: timeout, environment: context.environment, pacing: context.pacing),
                                          apiBase: apiBase, actor: try options.resolvedActor(context, store: store))
        let key = try RefreshRun.apiKey(secretsFlag: secrets, environment: context.environment)
        let result = try refresher.refresh(user, apiKey: key, now: context.now())
        for warning in result.warnings { context.warning(warning) }
        RefreshRun.write(result, json: json, to: context.stdout, quiet: context.quiet)
        return .success
    }
}
