import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTrust

/// `refresh USER --vendor appstore`: for each original transaction id of the customer's App
/// Store purchases (and each `--transaction`), Get All Subscription Statuses
/// (`GET /inApps/v1/subscriptions/{id}`) and Get Transaction History v2
/// (`GET /inApps/v2/history/{id}`, following `revision` while `hasMore`), every answer verified
/// and applied to USER through the webhook's path (`AppStoreAnswer`, `IngestRunner`).
///
/// Every answer is fetched and verified before anything is applied: a failure on the way
/// (a refused signature, 401, a time-out) writes nothing.
package struct AppStoreRefresh: Sendable {
    package let session: AppStoreAPISession
    package let runner: IngestRunner
    var api: AppStoreAPI { session.api }
    var verifier: AppStoreSignedDataVerifier { session.verifier }

    /// Applies what Apple answers by `actor` (a team store's commits).
    package init(session: AppStoreAPISession, actor: String) {
        self.session = session
        runner = session.runner(actor: actor)
    }

    /// What a refresh did: the original transactions asked about, the requests, and the events' outcomes.
    package struct Result: Sendable {
        package var user: String
        package var originalTransactionIDs: [String] = []
        package var requests = 0
        package var report = IngestReport()
        package var warnings: [String] = []
        /// True when an answer changed the customer's records.
        package var changed: Bool { (report.counts["applied"] ?? 0) > 0 }
    }

    /// The original transaction ids of `user`'s App Store purchases, then `named` ones, each once.
    func originalTransactions(of user: String, named: [String]) throws(EntitlementError) -> [String] {
        var ids: [String] = []
        if let profile = try runner.store.loadProfile(userID: user) {
            for transaction in profile.transactions where transaction.store == .appStore && !ids.contains(transaction.originalTransactionID) {
                ids.append(transaction.originalTransactionID)
            }
        }
        for id in named where !ids.contains(id) { ids.append(id) }
        return ids
    }

    package func refresh(_ user: String, transactions named: [String], now: Date) throws(EntitlementError) -> Result {
        var result = Result(user: user)
        result.originalTransactionIDs = try originalTransactions(of: user, named: named)
        guard !result.originalTransactionIDs.isEmpty else {
            throw .usage("\(Terminal.escape(user)) has no App Store transaction to ask Apple about.",
                         hint: "Name one with --transaction ID (from the app, or from 'entitlement lookup ORDER_ID').")
        }
        var answers: [(AppStoreAnswer, String)] = []
        for original in result.originalTransactionIDs {
            let segment = URLComponent.encoded(original)
            let statuses = try api.get("/inApps/v1/subscriptions/\(segment)")
            result.requests += 1
            answers.append((try AppStoreAnswer(statuses.body, url: statuses.url, verifier: verifier), "Get All Subscription Statuses"))
            for page in try history(segment, requests: &result.requests) { answers.append((page, "Get Transaction History")) }
        }
        var prepared: [(unit: IngestUnit, parsed: IngestRunner.ParsedUnit)] = []
        for (answer, type) in answers {
            result.warnings += answer.document.warnings.map { "\(Terminal.escape(URLText.withoutCredentials(answer.url))): \($0)" }
            guard let event = answer.event(customer: user, type: type, now: now) else { continue }
            prepared.append((answer.unit(receivedAt: now), .events([event])))
        }
        result.report = try runner.run(prepared: prepared)
        return result
    }

    /// Every page of Get Transaction History v2 for one original transaction: `revision` while `hasMore`.
    func history(_ segment: String, requests: inout Int) throws(EntitlementError) -> [AppStoreAnswer] {
        var pages: [AppStoreAnswer] = []
        var revision: String?
        repeat {
            let path = "/inApps/v2/history/\(segment)" + (revision.map { "?revision=\(URLComponent.encoded($0))" } ?? "")
            let answer = try api.get(path)
            requests += 1
            pages.append(try AppStoreAnswer(answer.body, url: answer.url, verifier: verifier))
            let more = try Self.more(answer, token: "revision")
            revision = more
        } while revision != nil
        return pages
    }

    /// The next page's token when `hasMore` is true (exit 4 when it is true without one, or the same twice).
    static func more(_ answer: (url: String, body: [UInt8]), token key: String) throws(EntitlementError) -> String? {
        guard case .object(let root)? = try? JSONParser.parse(answer.body) else {
            throw .vendorAPI(.unexpectedAnswer(url: answer.url, detail: "not a JSON object"))
        }
        guard case .bool(true)? = root["hasMore"] else { return nil }
        guard case .string(let next)? = root[key], !next.isEmpty else {
            throw .vendorAPI(.unexpectedAnswer(url: answer.url, detail: "hasMore is true but there is no \(key)"))
        }
        return next
    }
}
