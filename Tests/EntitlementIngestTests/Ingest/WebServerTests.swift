import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

/// The webhook behind a real web server (lighttpd with mod_cgi, and busybox httpd), posted to
/// with curl, checked with `check`: the real thing, end to end.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct WebServerTests {
    typealias F = IngestFixtures

    static func check(_ user: String, store: String, day: Double = 10) throws -> CLIResult {
        let at = ISODate.format(Date(timeIntervalSince1970: Double(F.base) / 1000 + day * 86_400))
        return try Binary.run(["check", user, "premium", "--store", store, "--at", at])
    }

    @Test func revenueCatThroughLighttpd() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        let url = "/hooks/entitlement/revenuecat"
        // Forged, then malformed, then too large: refused, nothing changes.
        #expect(try server.post(url, body: body, headers: ["Authorization": "Bearer forged"]).status == 403)
        #expect(try server.post(url, body: body).status == 401)
        #expect(try Self.check("alice", store: store).exitCode == 1)
        #expect(try server.post(url, body: "{\"event\": []}", headers: ["Authorization": F.secret]).status == 400)
        #expect(try server.post(url, body: String(repeating: " ", count: 2 << 20), headers: ["Authorization": F.secret]).status == 413)
        // Valid: 200 and access; a replay: 200, a duplicate.
        let first = try server.post(url, body: body, headers: ["Authorization": F.secret])
        #expect(first.status == 200)
        #expect(first.body.contains("\"accepted\""))
        #expect(try Self.check("alice", store: store).exitCode == 0)
        let applied = WebhookCGITests.transactions(of: "alice", in: store)
        let replay = try server.post(url, body: body, headers: ["Authorization": F.secret])
        #expect(replay.status == 200)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == applied)
        #expect(try Binary.run(["verify", "--store", store]).exitCode == 0)
        #expect(!(readFile(directory.path + "/error.log") ?? "").contains("test-secret"))
    }

    @Test func appStoreThroughLighttpd() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let body = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0)
        // One payload byte changed: the signature no longer matches.
        var tampered = Array(body.utf8)
        let index = tampered.count / 2
        tampered[index] = tampered[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let forged = try server.post("/hooks/entitlement/appstore", body: String(decoding: tampered, as: UTF8.self))
        #expect(forged.status == 403 || forged.status == 400)
        #expect(try Self.check(F.appStoreUser, store: store).exitCode == 1)
        #expect(try server.post("/hooks/entitlement/appstore", body: body).status == 200)
        #expect(try Self.check(F.appStoreUser, store: store).exitCode == 0)
    }

    @Test func twentyConcurrentPostsAllLand() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let body = F.revenueCat("INITIAL_PURCHASE", id: "c\(index)", at: 0, user: "user\(index)", transaction: "t\(index)", original: "t\(index)")
            statuses.add((try? server.post("/hooks/entitlement/revenuecat", body: body, headers: ["Authorization": F.secret]).status) ?? 0)
        }
        #expect(statuses.all == Array(repeating: 200, count: 20))
        // Any request that found the store busy was spooled; ingest finishes it.
        #expect(try Binary.run(["ingest", "--store", store, "--secrets", secrets]).exitCode == 0)
        for index in 0..<20 { #expect(try Self.check("user\(index)", store: store).exitCode == 0) }
    }

    @Test(.enabled(if: WebServer.busyboxPath != nil, "needs busybox"))
    func busyboxHttpdIsASecondServer() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(.busybox, directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        #expect(try server.post("/cgi-bin/entitlement/revenuecat", body: body, headers: ["Authorization": "Bearer nope"]).status == 403)
        #expect(try server.post("/cgi-bin/entitlement/revenuecat", body: body, headers: ["Authorization": F.secret]).status == 200)
        #expect(try Self.check("alice", store: store).exitCode == 0)
    }
}

/// Status codes collected from concurrent requests.
final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [Int] = []
    func add(_ code: Int) { lock.lock(); codes.append(code); lock.unlock() }
    var all: [Int] { lock.lock(); defer { lock.unlock() }; return codes }
}
