/// Settings `webhook` and `ingest` share: the secrets file, the ingest actor, and the
/// explicit choice to take unverified App Store data.
package enum IngestSettings {
    package static let actorVariable = "ENTITLEMENT_INGEST_ACTOR"
    package static let defaultActor = "entitlement ingest <ingest@localhost>"
    /// Set to 1 to accept App Store JWS without checking the signature (local test data only).
    package static let unverifiedAppStoreVariable = "ENTITLEMENT_APPSTORE_UNVERIFIED"

    /// `--actor`, else `$ENTITLEMENT_INGEST_ACTOR`, else `entitlement ingest <ingest@localhost>`.
    package static func actor(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let named = environment[actorVariable], !named.trimmingWhitespace.isEmpty { return named }
        return defaultActor
    }

    /// The authenticator over the secrets file (nil when there is none). A file that is
    /// refused (wrong owner or mode) is an error: exit 2, or 403 in `webhook`.
    package static func authenticator(secretsFlag: String?, environment: [String: String]) throws(EntitlementError) -> WebhookAuthenticator {
        let secrets = try SecretsFile.load(SecretsFile.location(flag: secretsFlag, environment: environment))
        return WebhookAuthenticator(secrets: secrets, acceptUnverifiedAppStore: environment[unverifiedAppStoreVariable] == "1")
    }
}
