import FoundationEssentials
import EntitlementTrust
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// What every App Store Server API command works with, set up once and alike (`refresh
/// --vendor appstore`, `lookup`, `ingest --recover appstore`): the store, its App Store
/// identity and verifier (`AppStoreSettings`, as `import` and `webhook` resolve them), the API
/// with its key, and the webhook authenticator that applies the answers through the ledger.
package struct AppStoreAPISession: Sendable {
    package let store: EntitlementStore
    let api: AppStoreAPI
    package let verifier: AppStoreSignedDataVerifier
    package let authenticator: WebhookAuthenticator

    /// Exit 2, before any request, when the secrets file is refused, the identity ambiguous,
    /// a credential missing or the key file refused.
    package init(store: EntitlementStore, secretsPath: String, apiBase: String?, client: VendorAPIClient,
                 clock: @escaping @Sendable () -> Date) throws(EntitlementError) {
        let secrets = try SecretsFile.load(secretsPath)
        let settings = try AppStoreSettings.resolve(store: store, secrets: secrets)
        let verifier = try settings.verifier(now: clock())
        self.store = store
        self.verifier = verifier
        api = try AppStoreAPI.configured(secrets: secrets, settings: settings, secretsPath: secretsPath, apiBase: apiBase, client: client, clock: clock)
        authenticator = WebhookAuthenticator(secrets: secrets, appStore: verifier)
    }

    /// The runner that applies answers as `webhook` applies notifications, by `actor`.
    package func runner(actor: String) -> IngestRunner {
        IngestRunner(store: store, authenticator: authenticator, actor: actor)
    }
}
