import Synchronization
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The bearer token of a run's Google API calls: the service account's assertion posted to
/// the key file's `token_uri` (never `--api-base`) as
/// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=JWT`, once, and again only
/// when the hour it is good for is nearly over. Kept in memory only.
package final class GoogleAccessToken: Sendable {
    let account: GoogleServiceAccount
    let client: VendorAPIClient
    /// Wall-clock seconds since 1970 for the assertion's `iat`.
    let wallClock: @Sendable () -> Int
    private let cached = Mutex<(token: String, until: Double)?>(nil)

    init(account: GoogleServiceAccount, client: VendorAPIClient, wallClock: @escaping @Sendable () -> Int) {
        self.account = account
        self.client = client
        self.wallClock = wallClock
    }

    /// The access token, asked for when there is none yet or it has less than five minutes left.
    func bearer() throws(EntitlementError) -> String {
        let now = client.pacing.now()
        if let token = cached.withLock({ $0.flatMap { $0.until > now ? $0.token : nil } }) { return token }
        let request = APIRequest(.post, account.tokenURI, headers: [("Accept", "application/json")],
                                 body: .form([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", try account.assertion(issuedAt: wallClock()))]),
                                 credentialCheck: "\(GoogleServiceAccount.keyName): the key may be deleted or disabled in the Cloud console, or this machine's clock is off",
                                 refusedStatuses: [400, 401, 403])
        let body = try client.send(request)
        guard case .object(let answer)? = try? JSONParser.parse(body), let token = answer["access_token"]?.stringValue, !token.isEmpty,
              VendorAPIClient.isHeaderSafe(token) else {
            throw .vendorAPI(.unexpectedAnswer(url: account.tokenURI, detail: "no \"access_token\" in the token endpoint's answer"))
        }
        let lifetime = answer["expires_in"]?.doubleValue ?? 3600
        cached.withLock { $0 = (token, now + max(lifetime - 300, 60)) }
        return token
    }
}
