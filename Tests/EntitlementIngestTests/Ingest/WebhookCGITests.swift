@testable import EntitlementModel
import Foundation
import Testing
@testable import EntitlementIngest
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `entitlement webhook` in-process, as a web server runs it: CGI variables and a body on stdin.
@Suite(.tags(.cli))
struct WebhookCGITests {
    typealias F = IngestFixtures

    static func post(_ vendor: String?, _ body: String, store: String, secrets: String, authorization: String? = F.secret,
                     extra: [String: String] = [:]) -> CLIResult {
        var environment = F.cgi(body, authorization: authorization)
        for (key, value) in extra { environment[key] = value }
        return runCLI(["webhook"] + (vendor.map { [$0] } ?? []) + ["--store", store, "--secrets", secrets], stdin: body, environment: environment)
    }

    static func status(_ result: CLIResult) -> String { result.stdout.components(separatedBy: "\r\n").first ?? "" }

    /// The answer says what was spooled, never what applying did (that comes after it).
    static func accepted(_ result: CLIResult) -> Bool {
        status(result) == "Status: 200 OK" && result.stdout.contains("\"status\": \"accepted\"") && !result.stdout.contains("applied")
    }

    /// How many transactions `user`'s profile holds (0 without one).
    static func transactions(of user: String, in store: String) -> Int {
        ((try? EntitlementStore(root: store).loadProfile(userID: user)) ?? nil)?.transactions.count ?? 0
    }

    @Test func validEventIsSpooledAppliedAndAnswered200() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let result = Self.post("revenuecat", F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), store: store, secrets: secrets)
        #expect(Self.accepted(result), "\(result.stdout)")
        #expect(result.exitCode == 0)
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", "2026-01-10T00:00:00Z"]).exitCode == 0)
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 0)
    }

    @Test func vendorFromPathInfo() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let result = Self.post(nil, F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), store: store, secrets: secrets, extra: ["PATH_INFO": "/revenuecat"])
        #expect(Self.status(result) == "Status: 200 OK")
    }

    @Test func replayIsADuplicate() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        _ = Self.post("revenuecat", body, store: store, secrets: secrets)
        #expect(Self.transactions(of: "alice", in: store) == 1)
        let replay = Self.post("revenuecat", body, store: store, secrets: secrets)
        #expect(Self.accepted(replay))
        #expect(Self.transactions(of: "alice", in: store) == 1)
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 0)
    }

    @Test func missingHeaderIs401WrongIs403AndNothingIsKept() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        let none = Self.post("revenuecat", body, store: store, secrets: secrets, authorization: nil)
        #expect(Self.status(none) == "Status: 401 Unauthorized")
        let wrong = Self.post("revenuecat", body, store: store, secrets: secrets, authorization: "Bearer test-secreT")
        #expect(Self.status(wrong) == "Status: 403 Forbidden")
        #expect(wrong.stderr.split(separator: "\n").count == 1)
        #expect(!wrong.stderr.contains("test-secre"))
        #expect(!FileManager.default.fileExists(atPath: store + "/ingest"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
    }

    @Test func vendorWithoutSecretIs403NamingTheKey() {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let secrets = directory.path + "/only-adapty.json"
        writeFile(secrets, #"{"adapty": {"authorization": "x"}}"#)
        chmod(secrets, 0o600)
        let result = Self.post("revenuecat", F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), store: store, secrets: secrets)
        #expect(Self.status(result) == "Status: 403 Forbidden")
        #expect(result.stderr.contains("revenuecat.authorization"))
    }

    @Test(arguments: [0o644, 0o640, 0o604])
    func secretsReadableByOthersAreRefused(mode: Int) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        chmod(secrets, mode_t(mode))
        let result = Self.post("revenuecat", F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), store: store, secrets: secrets)
        #expect(Self.status(result) == "Status: 403 Forbidden")
        #expect(result.stderr.contains("mode 0\(String(mode, radix: 8))"))
        let ingest = runCLI(["ingest", "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2)
    }

    @Test(arguments: ["", "{", "[]", #"{"event": 3}"#, #"{"event": {"type": "RENEWAL"}}"#, "\u{FF}"])
    func malformedBodyIs400(body: String) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let result = Self.post("revenuecat", body, store: store, secrets: secrets)
        #expect(Self.status(result) == "Status: 400 Bad Request")
        #expect(!FileManager.default.fileExists(atPath: store + "/ingest/spool"))
    }

    @Test func oversizedBodyIsRefusedUnread() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        let result = Self.post("revenuecat", body, store: store, secrets: secrets, extra: ["CONTENT_LENGTH": String(WebhookHandler.maximumBody + 1)])
        #expect(Self.status(result) == "Status: 413 Content Too Large")
    }

    @Test func otherMethodsAndUnknownVendors() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(Self.status(Self.post("revenuecat", "", store: store, secrets: secrets, extra: ["REQUEST_METHOD": "GET"])) == "Status: 405 Method Not Allowed")
        #expect(Self.status(Self.post(nil, "{}", store: store, secrets: secrets, extra: ["PATH_INFO": "/nosuch"])) == "Status: 404 Not Found")
        #expect(Self.status(Self.post(nil, "{}", store: store, secrets: secrets, extra: ["PATH_INFO": "/../etc"])) == "Status: 404 Not Found")
    }

    @Test func busyStoreStillAnswers200AndIngestFinishes() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let lock = open(store + "/.lock", O_RDWR | O_CREAT, 0o600)
        #expect(flock(lock, LOCK_EX) == 0)
        let result = Self.post("revenuecat", F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), store: store, secrets: secrets)
        #expect(Self.accepted(result))
        #expect(result.stderr.contains("spooled, not applied yet"), "\(result.stderr)")
        close(lock)
        let status = runCLI(["ingest", "--status", "--store", store, "--json"])
        #expect(status.stdout.contains("\"waiting\": 1"))
        let spooled = try #require(try FileManager.default.contentsOfDirectory(atPath: store + "/ingest/spool").first)
        #expect(!(readFile(store + "/ingest/spool/" + spooled) ?? "").contains("test-secret"))
        let ingest = runCLI(["ingest", "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 0)
        #expect(ingest.stdout.contains("1 applied"))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", "2026-01-10T00:00:00Z"]).exitCode == 0)
    }

    @Test func unknownCustomerFailureIsKeptWithItsReason() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "a1", signedAt: 0, transaction: ["appAccountToken": NSNull()])
        let result = Self.post("appstore", body, store: store, secrets: secrets)
        #expect(Self.status(result) == "Status: 200 OK")
        let status = runCLI(["ingest", "--status", "--store", store])
        #expect(status.stdout.contains("Failed: 1:"))
        #expect(status.stdout.contains("appAccountToken"))
        let retry = runCLI(["ingest", "--store", store, "--secrets", secrets])
        #expect(retry.exitCode == 4)
        #expect(retry.stderr.contains("appAccountToken"))
    }
}

extension Spool {
    var waitingCount: Int { (try? waiting().count) ?? -1 }
}

extension WebhookCGITests {
    /// A body shorter than CONTENT_LENGTH (a direct CGI call, a server that passes a cut body)
    /// is a bad request: nothing is spooled or applied.
    @Test func aBodyShorterThanContentLengthIsRefused() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        let result = Self.post("revenuecat", body, store: store, secrets: secrets, extra: ["CONTENT_LENGTH": String(body.utf8.count + 10)])
        #expect(Self.status(result).hasPrefix("Status: 400"), "\(result.stdout)")
        #expect(result.stdout.contains("short_body"))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", "2026-01-10T00:00:00Z"]).exitCode != 0)
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 0)
    }
}
