import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementStore
@testable import EntitlementIngest
import EntitlementTestSupport

/// The webhook behind real lighttpd answers before it applies: lighttpd ends the response as soon
/// as it has the answer and then sends the program SIGTERM, which the apply holds off; a
/// webhook killed outright after its answer loses nothing, and its request is applied exactly
/// once by the next request or `ingest` (docs/ingest.md, "Answers").
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(5)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct WebServerAfterAnswerTests {
    typealias F = IngestFixtures
    static let url = "/hooks/entitlement/revenuecat"

    static func body(_ id: String, user: String) -> String {
        F.revenueCat("INITIAL_PURCHASE", id: id, at: 0, user: user, transaction: "t-\(id)", original: "t-\(id)")
    }

    /// The processes running `entitlement webhook` on `store` (their command line names it).
    static func webhooks(on store: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.contains("webhook") && words.contains(store)
        }
    }

    static func waiting(_ store: String) -> Int { Spool(store: EntitlementStore(root: store)).waitingCount }

    @Test func theApplyOutlivesTheEndOfTheResponse() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        // The lock is held: the answer comes anyway, and the apply waits past lighttpd's SIGTERM.
        let lock = open(store + "/.lock", O_RDWR | O_CREAT, 0o600)
        #expect(flock(lock, LOCK_EX) == 0)
        let answer = try server.post(Self.url, body: Self.body("a1", user: "alice"), headers: ["Authorization": F.secret], waitingForTheApply: false)
        #expect(answer.status == 200)
        #expect(answer.body.contains("\"accepted\""))
        #expect(Self.waiting(store) == 1)
        usleep(300_000)  // lighttpd has ended the response and signalled the program by now
        #expect(!Self.webhooks(on: store).isEmpty, "the webhook did not outlive its response")
        close(lock)
        server.waitForTheApply()
        #expect(Self.waiting(store) == 0)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
    }

    @Test func aWebhookKilledAfterItsAnswerIsAppliedOnceLater() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let lock = open(store + "/.lock", O_RDWR | O_CREAT, 0o600)
        #expect(flock(lock, LOCK_EX) == 0)
        let answer = try server.post(Self.url, body: Self.body("k1", user: "alice"), headers: ["Authorization": F.secret], waitingForTheApply: false)
        #expect(answer.status == 200)
        // Acknowledged; killed while it waits to apply (on a machine so slow that it gave up
        // waiting first, the request is left just the same: acknowledged and not applied).
        let pids = Self.webhooks(on: store)
        #expect(pids.count <= 1)
        for pid in pids { kill(pid, SIGKILL) }
        close(lock)
        #expect(Self.waiting(store) == 1)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 0)

        // The next request applies both, each once.
        #expect(try server.post(Self.url, body: Self.body("k2", user: "bob"), headers: ["Authorization": F.secret]).status == 200)
        #expect(Self.waiting(store) == 0)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        #expect(WebhookCGITests.transactions(of: "bob", in: store) == 1)
        // ingest finds nothing; the vendor's retry of the killed request is a duplicate.
        let ingest = try Binary.run(["ingest", "--store", store, "--secrets", secrets, "--json"])
        #expect(ingest.stdout.contains("\"applied\": 0"), "\(ingest.stdout)")
        #expect(try server.post(Self.url, body: Self.body("k1", user: "alice"), headers: ["Authorization": F.secret]).status == 200)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        #expect(try Binary.run(["verify", "--store", store]).exitCode == 0)
    }

    @Test func aWebhookKilledAfterItsAnswerIsAppliedOnceByIngest() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let lock = open(store + "/.lock", O_RDWR | O_CREAT, 0o600)
        #expect(flock(lock, LOCK_EX) == 0)
        #expect(try server.post(Self.url, body: Self.body("i1", user: "alice"), headers: ["Authorization": F.secret], waitingForTheApply: false).status == 200)
        for pid in Self.webhooks(on: store) { kill(pid, SIGKILL) }
        close(lock)
        let ingest = try Binary.run(["ingest", "--store", store, "--secrets", secrets, "--json"])
        #expect(ingest.exitCode == 0)
        #expect(ingest.stdout.contains("\"applied\": 1"), "\(ingest.stdout)")
        #expect(Self.waiting(store) == 0)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        let again = try Binary.run(["ingest", "--store", store, "--secrets", secrets, "--json"])
        #expect(again.stdout.contains("\"applied\": 0"), "\(again.stdout)")
    }
}
