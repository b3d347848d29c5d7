import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementModel
import EntitlementStore
import EntitlementTrust

/// The App Store API commands' share of the command line (`refresh --vendor appstore`,
/// `lookup`, `ingest --recover appstore`): `--api-base`, and the `AppStoreAPISession` of the
/// secrets file the run names, with the run's clock and waits.
enum AppStoreAPIRun {
    /// `--api-base` of the commands that ask another vendor than RevenueCat: the vendor's own by default.
    static let apiBaseOption = Option<String>("api-base", value: "URL", kind: .text, help: "The API's address (for tests and proxies).") {
        (text, source) throws(ValueProblem) in try RefreshCommand.apiBaseOption.parse(text, source)
    }
        .describingDefault("the vendor's, see docs/ingest.md, \"Where the APIs are\"")

    /// Exit 2, before any request, when the secrets file is refused, the identity ambiguous,
    /// a credential missing or the key file refused. `rate`: at most that many requests a second.
    static func session(store: EntitlementStore, secretsFlag: String?, apiBase: String?, timeout: Double, rate: Double? = nil,
                        context: Context) throws(EntitlementError) -> AppStoreAPISession {
        let client = VendorAPIClient(timeout: timeout, environment: context.environment, pacing: context.pacing,
                                     rate: rate.map { RequestRate(perSecond: $0) })
        return try AppStoreAPISession(store: store, secretsPath: SecretsFile.location(flag: secretsFlag, environment: context.environment),
                                      apiBase: apiBase, client: client, clock: context.now)
    }
}
