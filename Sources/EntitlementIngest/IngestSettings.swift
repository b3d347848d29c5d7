import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Settings `webhook` and `ingest` share: the secrets file (with the App Store entry that
/// configures verification), and the ingest actor.
package enum IngestSettings {
    package static let actorVariable = "ENTITLEMENT_INGEST_ACTOR"
    static let defaultActor = "entitlement ingest <ingest@localhost>"

    /// `--actor`, else `$ENTITLEMENT_INGEST_ACTOR`, else `entitlement ingest <ingest@localhost>`.
    package static func actor(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let named = environment[actorVariable], !named.trimmingWhitespace.isEmpty { return named }
        return defaultActor
    }

    /// The authenticator over the secrets file (nil when there is none) and the store's App Store
    /// settings (`AppStoreSettings`: `config.json`'s `app_store` with the secrets file's `appstore`).
    /// A secrets file that is refused (wrong owner or mode, unreadable, an unusable `appstore`
    /// entry) or an identity the two files disagree on is an error: exit 2, or 403 for every
    /// vendor in `webhook`. `now` judges App Store payloads that carry no `signedDate`.
    package static func authenticator(secretsFlag: String?, environment: [String: String], store: EntitlementStore,
                                      now: Date) throws(EntitlementError) -> WebhookAuthenticator {
        let secrets = try SecretsFile.load(SecretsFile.location(flag: secretsFlag, environment: environment))
        let settings = try AppStoreSettings.resolve(store: store, secrets: secrets)
        return WebhookAuthenticator(secrets: secrets, appStore: try settings.verifier(now: now))
    }
}
