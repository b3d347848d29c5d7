import FoundationEssentials
import EntitlementIngest
import EntitlementModel
import EntitlementStore
import EntitlementTrust

/// What the App Store API commands (`refresh --vendor appstore`, `lookup`, `ingest --recover
/// appstore`) set up alike: the secrets file, the store's App Store identity and verifier
/// (`AppStoreSettings`, as `import` and `webhook` resolve them), and the API with its key.
struct AppStoreAPIRun {
    /// `--api-base` of the commands that ask another vendor than RevenueCat: the vendor's own by default.
    static let apiBaseOption = Option<String>("api-base", value: "URL", kind: .text, help: "The API's address (for tests and proxies).") {
        (text, source) throws(ValueProblem) in try RefreshCommand.apiBaseOption.parse(text, source)
    }
        .describingDefault("the vendor's, see docs/ingest.md, \"Where the APIs are\"")

    var api: AppStoreAPI
    var verifier: AppStoreSignedDataVerifier
    var authenticator: WebhookAuthenticator

    /// Exit 2, before any request, when the secrets file is refused, the identity ambiguous,
    /// a credential missing or the key file refused.
    static func make(store: EntitlementStore, secretsFlag: String?, apiBase: String?, timeout: Double, context: Context) throws(EntitlementError) -> AppStoreAPIRun {
        let path = SecretsFile.location(flag: secretsFlag, environment: context.environment)
        let secrets = try SecretsFile.load(path)
        let settings = try AppStoreSettings.resolve(store: store, secrets: secrets)
        let verifier = try settings.verifier(now: context.now())
        let client = VendorAPIClient(timeout: timeout, environment: context.environment, pacing: context.pacing)
        let api = try AppStoreAPI.configured(secrets: secrets, settings: settings, secretsPath: path, apiBase: apiBase, client: client, clock: context.now)
        return AppStoreAPIRun(api: api, verifier: verifier, authenticator: WebhookAuthenticator(secrets: secrets, appStore: verifier))
    }
}
