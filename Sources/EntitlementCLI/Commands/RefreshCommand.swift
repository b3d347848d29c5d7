import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementModel
import EntitlementStore

/// `entitlement refresh USER --vendor V` (or `--stdin`): re-reads customers from the vendor's API.
struct RefreshCommand: RunnableCommand, Equatable {
    /// The vendors whose API `refresh` reads.
    static let apiVendors: [Vendor] = [.revenuecat, .stripe, .adapty, .googleplay, .appstore]

    static let spec = CommandSpec(
        name: "refresh",
        abstract: "Re-read customers from the vendor's API and import the answers.",
        discussion: """
            Asks the vendor what it knows of the customer now, through curl, with the credentials
            of the secrets file (sent on curl's standard input, never on a command line), and
            imports the answers as 'import' imports those documents, under the store lock.
            RevenueCat: GET /v1/subscribers/{USER}. Stripe: GET /v1/subscriptions?customer=cus_…
            (every page). Adapty: GET /api/v2/server-side-api/profile/. Google Play: each purchase
            token of the profile, with a token from the service account's key file.
            App Store: for each original transaction id of the customer (and each --transaction),
            Get All Subscription Statuses and Get Transaction History, authenticated by a JWT signed
            with appstore.private_key_file; every signed answer is verified as 'import' verifies it
            and applied through the webhook's ledger, so nothing is applied twice.
            config.json is not changed. With --stdin, one customer per line, at most --rate
            requests a second, and a summary. Exit 2 for missing credentials or a refused key
            file, 6 when the API cannot be reached, answers 429 past --timeout, or does not answer
            in time, 4 for a refusal (401/403), another answer than 200 or one not in the
            documented shape (and with --stdin when any customer failed), 5 when the store is busy.
            See docs/ingest.md, "refresh".
            """,
        usage: "USER --vendor V [--api-base URL] [--timeout SECONDS] [options]\n       entitlement refresh --stdin --vendor V [--rate N] [options]",
        arguments: [ArgumentSpec("USER", kind: .userID, optional: true, help: "The customer user id (not with --stdin).")],
        options: [
            vendorOption, stdinFlag, rateOption, apiBaseOption, timeoutOption, stripeCustomerOption, purchaseTokenOption, transactionOption,
            WebhookCommand.secretsOption, CommonOptions.json, CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement refresh alice@example.com --vendor revenuecat",
            "entitlement refresh alice --vendor stripe --stripe-customer cus_NffrFeUfNV2Hib",
            "entitlement refresh alice --vendor googleplay --json",
            "entitlement refresh alice --vendor appstore --transaction 2000000123456789",
            "cut -f1 customers.tsv | entitlement refresh --stdin --vendor stripe --rate 10",
        ])

    static let vendorOption = Option<Vendor>.choice("vendor", value: "V", among: apiVendors, help: "Whose API to read: \(Vendor.phrase(apiVendors)).")
    static let transactionOption = Option<String>.string("transaction", value: "ID", kind: .transactionID, repeatable: true,
        help: "App Store: also ask about this original transaction id (a customer with none in the store yet).")
    static let stdinFlag = Flag("stdin", help: "Refresh every customer id on standard input, one per line.")
    static let rateOption = Option<Double>("rate", value: "N", kind: .count, help: "With --stdin: at most N requests a second (default: under the vendor's limit, docs/ingest.md).") {
        (text, source) throws(ValueProblem) in
        guard let rate = Double(text), rate > 0, rate.isFinite else {
            throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'; expected requests a second, above 0.")
        }
        return rate
    }
    static let apiBaseOption = Option<String>("api-base", value: "URL", kind: .text, help: "The API's address (for tests and proxies); never where a Google token is asked for.") {
        (text, _) throws(ValueProblem) in
        guard text.hasPrefix("https://") || text.hasPrefix("http://"), VendorAPIClient.isHeaderSafe(text), !text.contains(" ") else {
            throw ValueProblem("--api-base must be an http:// or https:// URL, got '\(Terminal.escape(URLText.withoutCredentials(text)))'.")
        }
        return text
    }
    .describingDefault("the vendor's")
    static let timeoutOption = Option<Double>.seconds("timeout", help: "Give up on a request (its retries and waits included) after this long.")
        .withDefault(defaultTimeout, shown: formatSeconds(defaultTimeout))
    static let defaultTimeout = 30.0
    static let stripeCustomerOption = Option<String>.string("stripe-customer", value: "ID", kind: .text, help: "Stripe: the customer id (cus_…) to ask for.")
    static let purchaseTokenOption = Option<String>.string("purchase-token", value: "TOKEN", kind: .text, repeatable: true,
                                                            help: "Google Play: a purchase token to ask about besides the profile's.")

    var user: String?
    var vendor: Vendor
    var transactions: [String]
    var stdin: Bool
    var rate: Double?
    var apiBase: String?
    var timeout: Double
    var stripeCustomer: String?
    var purchaseTokens: [String]
    var secrets: String?
    var json: Bool
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        stdin = parsed.flag(Self.stdinFlag)
        if stdin {
            guard parsed.positionals.isEmpty else { throw .usage("--stdin reads the user ids from standard input; give no USER.", command: name) }
            user = nil
        } else {
            guard parsed.positionals.count == 1 else {
                throw .usage(parsed.positionals.isEmpty ? "missing argument USER (or --stdin)." : "refresh takes one USER.", command: name)
            }
            user = try UserID.argument(parsed.positionals[0], command: name)
        }
        guard let vendor = try parsed.value(Self.vendorOption) else {
            throw .usage("missing --vendor: name whose API to read (\(Vendor.phrase(Self.apiVendors))).", command: name)
        }
        self.vendor = vendor
        rate = try parsed.value(Self.rateOption)
        apiBase = try parsed.value(Self.apiBaseOption)
        timeout = try parsed.value(Self.timeoutOption)
        guard timeout > 0 else { throw .usage("--timeout must be more than 0 seconds.", command: name) }
        stripeCustomer = try parsed.value(Self.stripeCustomerOption)
        if let stripeCustomer {
            guard vendor == .stripe, !stdin else { throw .usage("--stripe-customer goes with --vendor stripe and one USER.", command: name) }
            guard stripeCustomer.hasPrefix("cus_"), VendorAPIClient.isHeaderSafe(stripeCustomer) else {
                throw .usage("--stripe-customer must be a Stripe customer id (cus_…).", command: name)
            }
        }
        purchaseTokens = try parsed.values(Self.purchaseTokenOption)
        if !purchaseTokens.isEmpty, vendor != .googleplay || stdin {
            throw .usage("--purchase-token goes with --vendor googleplay and one USER.", command: name)
        }
        transactions = try parsed.values(Self.transactionOption)
        if !transactions.isEmpty, vendor != .appstore || stdin { throw .usage("--transaction goes with --vendor appstore and one USER.", command: name) }
        secrets = try parsed.value(WebhookCommand.secretsOption)
        json = parsed.flag(CommonOptions.json)
        options = MutationOptions(store: try parsed.value(CommonOptions.store), actor: try parsed.value(CommonOptions.actor))
        options.lockTimeout = try parsed.given(CommonOptions.lockTimeout)
    }

    /// Seconds since 1970 of the injected clock (a Google assertion's `iat`).
    static func wallClock(_ context: Context) -> @Sendable () -> Int {
        let clock = context.clock
        return { Int(clock().timeIntervalSince1970) }
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        try store.requireExists()
        if vendor == .appstore { return try runAppStore(store: store, context: context) }
        let perSecond = rate ?? (stdin ? RefreshSources.defaultRate(vendor) : nil)
        let client = VendorAPIClient(timeout: timeout, environment: context.environment, pacing: context.pacing,
                                     rate: perSecond.map { RequestRate(perSecond: $0) })
        let source = try RefreshRun.source(vendor, secretsFlag: secrets, context: context, client: client, apiBase: apiBase,
                                           options: RefreshSources.Options(stripeCustomer: stripeCustomer, purchaseTokens: purchaseTokens,
                                                                           wallClock: Self.wallClock(context)))
        let refresher = CustomerRefresh(store: store, source: source, actor: try options.resolvedActor(context, store: store))
        guard let user else {
            return try runStdin(vendor, context: context) { (id) throws(EntitlementError) -> StdinRefresh in
                let result = try refresher.refresh(id, now: context.now())
                return StdinRefresh(changed: result.changed, json: RefreshRun.jsonObject(result))
            }
        }
        let result = try refresher.refresh(user, now: context.now())
        for warning in result.warnings { context.warning(warning) }
        RefreshRun.write(result, json: json, to: context.stdout, quiet: context.quiet)
        return .success
    }
}
