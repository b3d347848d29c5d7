import Foundation
import Testing
import EntitlementTestSupport

/// Adapty and Qonversion behind lighttpd (the WebServerTests suite's traits apply): a valid
/// post, a forged one, one without credentials and a malformed one, with the bodies of
/// Fixtures/events/.
extension WebServerTests {
    static func fixture(_ path: String) throws -> String {
        try #require(readFile(repositoryRoot + "/Fixtures/events/" + path))
    }

    @Test(arguments: [
        ("adapty", "adapty/subscription_started.json", IngestFixtures.adaptySecret),
        ("qonversion", "qonversion/subscription_started.json", IngestFixtures.qonversionSecret),
    ])
    func vendorThroughLighttpd(_ vendor: String, _ file: String, _ secret: String) throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let body = try Self.fixture(file)
        let url = "/hooks/entitlement/\(vendor)"
        #expect(try server.post(url, body: body, headers: ["Authorization": secret + "x"]).status == 403)
        #expect(try server.post(url, body: body).status == 401)
        #expect(try server.post(url, body: "{\"event_type\": ", headers: ["Authorization": secret]).status == 400)
        #expect(try Self.check("alice", store: store).exitCode == 1)
        let valid = try server.post(url, body: body, headers: ["Authorization": secret])
        #expect(valid.status == 200)
        #expect(valid.body.contains("\"accepted\""))
        #expect(try Self.check("alice", store: store).exitCode == 0)
        let applied = WebhookCGITests.transactions(of: "alice", in: store)
        #expect(try server.post(url, body: body, headers: ["Authorization": secret]).status == 200)
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == applied)
        #expect(!(readFile(directory.path + "/error.log") ?? "").contains(secret))
    }

    @Test func adaptySaveRequestAndSnapshotThroughLighttpd() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let headers = ["Authorization": IngestFixtures.adaptySecret]
        let ping = try server.post("/hooks/entitlement/adapty", body: try Self.fixture("adapty/save-verification.json"), headers: headers)
        #expect(ping.status == 200)
        #expect(ping.body.contains("\"events\": 0"))
        #expect(try server.post("/hooks/entitlement/adapty", body: try Self.fixture("adapty/subscription_started.json"), headers: headers).status == 200)
        #expect(try server.post("/hooks/entitlement/adapty", body: try Self.fixture("adapty/access_level_updated.json"), headers: headers).status == 200)
        let check = try Self.check("alice", store: store)
        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("revoked"))
    }
}
