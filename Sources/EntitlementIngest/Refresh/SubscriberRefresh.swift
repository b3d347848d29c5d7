import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore
import EntitlementImport

/// `refresh USER --vendor revenuecat`: reads the customer from RevenueCat's API
/// (`GET {base}/v1/subscribers/{id}`) and imports the answer as `import` imports a subscriber
/// document, under the store lock, as one audited change (docs/ingest.md, "refresh").
///
/// RevenueCat recommends it after every webhook: an event says what happened, the subscriber
/// says what is true now. The configuration is never changed (as `import` without
/// `--update-config`): products the answer maps that config.json lacks are named in warnings.
package struct SubscriberRefresh: Sendable {
    package static let defaultAPIBase = "https://api.revenuecat.com"
    package static let keyName = "revenuecat.api_key"

    package let store: EntitlementStore
    package let client: VendorAPIClient
    package var apiBase: String
    package var actor: String

    package init(store: EntitlementStore, client: VendorAPIClient, apiBase: String?, actor: String) {
        self.store = store
        self.client = client
        self.apiBase = apiBase ?? Self.defaultAPIBase
        self.actor = actor
    }

    /// What one refresh did.
    package struct Result: Sendable {
        package var user: String
        package var url: String
        package var merge: MergeReport?
        package var warnings: [String] = []
        package var changed: Bool { merge?.changed ?? false }
    }

    /// The API key of the secrets file at `secretsPath` (nil: there is none), checked before any request.
    package static func apiKey(_ secrets: SecretsFile?, secretsPath: String) throws(EntitlementError) -> String {
        guard let key = secrets?.string(.revenuecat, "api_key") else { throw .vendorAPI(.missingKey(key: keyName, file: secretsPath)) }
        guard VendorAPIClient.isHeaderSafe(key) else { throw .vendorAPI(.unusableKey(key: keyName, file: secretsPath)) }
        return key
    }

    /// The subscriber's URL: the id percent-encoded as one path segment, so `a/b` or `..` stay an id.
    package func url(for user: String) -> String {
        URLComponent.join(apiBase, "/v1/subscribers/\(URLComponent.encoded(user))")
    }

    /// Fetches `user` and merges the answer into their profile; nothing is written when the
    /// request or the answer fails, or when the profile already says it all.
    package func refresh(_ user: String, apiKey: String, now: Date) throws(EntitlementError) -> Result {
        let url = url(for: user)
        let authorization = apiKey.hasPrefix("Bearer ") ? apiKey : "Bearer \(apiKey)"
        let body = try client.get(url, headers: [("Authorization", authorization), ("Accept", "application/json")],
                                  credentialCheck: "revenuecat.api_key (a secret key, sk_…)")
        let shown = URLText.withoutCredentials(url)
        var outcome = ImportOutcome(name: shown)
        let document = try DocumentMapper.map(body, file: shown, format: .revenuecat, jws: .decodeOnly)
        var result = Result(user: user, url: shown)
        result.warnings = document.warnings
        ImportResolution.time(of: document, option: nil, now: now, into: &outcome, warnings: &result.warnings)
        try ImportResolution.user(of: document, file: shown, option: user, into: &outcome, warnings: &result.warnings)
        guard document.hasProfileData else { return result }
        let change = ChangeDescription(summary: "refresh \(user) from RevenueCat", actor: actor)
        return try store.withWriteLock(change) { () throws(EntitlementError) -> Result in
            let configuration = try store.loadConfiguration()
            let settled = document.settled(at: outcome.time ?? now, configuration: configuration)
            let stored = try store.loadProfile(userID: user)
            if stored == nil {
                do throws(UserID.Problem) { _ = try UserID.validateNew(user) } catch { throw .invalidUserID(error, command: "refresh") }
            }
            let (profile, report) = ProfileMerger.merge(settled, into: stored, userID: user, newProfileID: ProfileIdentity.derived(for: user), now: now)
            result.merge = report
            result.warnings += report.warnings
            let (_, added) = ConfigurationExtender.extend(configuration, with: settled.productMappings)
            result.warnings += added.map(ImportNotices.configurationNotChangedByRefresh)
            if report.changed {
                for warning in try store.save(configuration: nil, profiles: [profile]) { result.warnings.append(warning) }
            }
            return result
        }
    }

    /// RFC 3986 path segment: unreserved characters kept, every other UTF-8 byte as `%XX`.
    package static func pathSegment(_ text: String) -> String { URLComponent.encoded(text) }
}
