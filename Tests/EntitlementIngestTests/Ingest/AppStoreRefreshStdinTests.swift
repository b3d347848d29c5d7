import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementIngest
import EntitlementTestSupport

/// `refresh --stdin --vendor appstore` (each customer by the original transaction ids of its
/// profile, at `--rate`, with `refresh --stdin`'s summary and exit code) and an App Store
/// Server API that does not answer within `--timeout`, against `FakeAppStoreAPI` on 127.0.0.1.
@Suite(.tags(.cli), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.curlPath != nil, "needs curl (scripts/ensure-tools.sh)"))
struct AppStoreRefreshStdinTests {
    typealias A = AppStoreAPIFixtures
    typealias Setup = AppStoreAPITests.Setup

    /// Statuses and one page of history for `original`, its latest transaction `latest` expiring on day `expires`.
    static func serve(_ s: Setup, original: String, latest: String, expires: Int64, signed: Int64 = 20) {
        let transaction = A.transaction(latest, original: original, purchased: expires - 30, expires: expires, signed: signed)
        s.api.route("GET", "/inApps/v1/subscriptions/\(original)", json: A.statuses(original: original, transaction: transaction,
                                                                                  renewal: A.renewal(original: original, signed: signed)))
        s.api.route("GET", "/inApps/v2/history/\(original)", json: A.history([transaction], revision: "r-\(latest)", hasMore: false))
    }

    @Test func stdinRefreshesEachCustomerByItsOriginalTransactionsAndSummarizes() throws {
        let s = try Setup()
        defer { s.api.stop() }
        Self.serve(s, original: "1000", latest: "1001", expires: 30)
        Self.serve(s, original: "2000", latest: "2001", expires: 30)
        #expect(s.refresh("alice", ["--transaction", "1000"]).exitCode == 0)
        #expect(s.refresh("bob", ["--transaction", "2000"]).exitCode == 0)
        // Bob renewed since; alice's state is what the store holds; carol has no App Store purchase.
        Self.serve(s, original: "2000", latest: "2002", expires: 60, signed: 21)
        let asked = s.api.requests.count
        let result = s.run(["refresh", "--stdin", "--vendor", "appstore", "--rate", "4", "--api-base", s.api.base],
                           stdin: "# customers\nalice\nbob\n\ncarol\n")
        #expect(result.exitCode == 4, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Refreshed 3 App Store customers: 1 changed, 1 unchanged, 1 failed.\n"), "\(result.stdout)")
        #expect(result.stdout.contains("failed: carol (line 5): carol has no App Store transaction"), "\(result.stdout)")
        #expect(Array(s.api.requests.dropFirst(asked).map(\.target)) == ["/inApps/v1/subscriptions/1000", "/inApps/v2/history/1000",
                                                                          "/inApps/v1/subscriptions/2000", "/inApps/v2/history/2000"])
        #expect(s.pacing.recorded == [0.25, 0.25, 0.25])
        #expect(s.check("bob", day: 45) == 0 && s.check("alice", day: 45) != 0)
        // One JSON object a customer with --json; the same answers again change nothing.
        let again = s.run(["refresh", "--stdin", "--vendor", "appstore", "--json", "--api-base", s.api.base], stdin: "alice\nbob\n")
        #expect(again.exitCode == 0, "\(again.stderr)")
        let lines = again.stdout.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
        #expect(lines.count == 2 && lines.allSatisfy { $0?["changed"] == .bool(false) && $0?["vendor"] == .string("appstore") }, "\(again.stdout)")
    }

    @Test func noAnswerWithinTheTimeoutIsExit6AndWritesNothing() throws {
        let s = try Setup()
        defer { s.api.stop() }
        let statuses = A.statuses(transaction: A.transaction("1001"), renewal: A.renewal())
        s.api.route("GET", "/inApps/v1/subscriptions/1000", [.init(status: 200, body: statuses, delay: 2)])
        let result = s.refresh("alice", ["--transaction", "1000", "--timeout", "1"])
        #expect(result.exitCode == 6)
        #expect(result.stderr.contains("did not answer within 1 s"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.store + "/profiles/alice.json"))
        #expect(s.events().isEmpty)
    }
}
