import Foundation
import Testing
import EntitlementTestSupport

/// The store's App Store identity binds every path that takes signed data: `config.json`'s
/// `app_store` and the secrets file's `appstore` entry, resolved once (`AppStoreSettings`), for
/// `webhook` (through lighttpd), `ingest --from` and `import` alike (docs/security.md, "The
/// store's App Store identity"). Signed with the test chain (TestPKI); its root is trusted
/// through `appstore.trust_roots` or `--trust-root`.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct AppStoreIdentityTests {
    typealias F = IngestFixtures

    /// A store whose `config.json` says `app_store`, and a secrets file with `appstore` (the
    /// test root added to it) and RevenueCat's header value; `mode` is the secrets file's.
    static func setUp(_ directory: TemporaryDirectory, appStore: [String: Any]?, secretsEntry: [String: Any] = [:], mode: mode_t = 0o600)
        -> (store: String, secrets: String, root: String) {
        var config: [String: Any] = ["schema_version": 1, "entitlements": ["premium": ["products": ["monthly"]]]]
        if let appStore { config["app_store"] = appStore }
        let store = directory.store(config: F.json(config))
        let root = directory.path + "/test-root.der"
        _ = FileManager.default.createFile(atPath: root, contents: Data(F.chain.root.der))
        var entry = secretsEntry
        entry["trust_roots"] = [root]
        let secrets = directory.path + "/secrets.json"
        writeFile(secrets, F.json(["revenuecat": ["authorization": F.secret], "appstore": entry]))
        chmod(secrets, mode)
        return (store, secrets, root)
    }

    /// A SUBSCRIBED notification for `bundle`, signed with the test chain (every part says `bundle`).
    static func notification(bundle: String, uuid: String = "n-other") -> String {
        let signedDate = F.base
        let transaction: [String: Any] = [
            "transactionId": "1000", "originalTransactionId": "1000", "productId": "monthly", "purchaseDate": F.base,
            "expiresDate": F.base + 30 * F.day, "type": "Auto-Renewable Subscription", "appAccountToken": F.appStoreUser,
            "inAppOwnershipType": "PURCHASED", "environment": "Production", "signedDate": signedDate, "bundleId": bundle,
        ]
        let data: [String: Any] = ["bundleId": bundle, "environment": "Production", "signedTransactionInfo": F.jws(transaction)]
        return F.json(["signedPayload": F.jws(["notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": uuid,
                                                "signedDate": signedDate, "version": "2.0", "data": data])])
    }

    static func file(_ directory: TemporaryDirectory, _ name: String, _ text: String) -> String {
        let folder = directory.path + "/in-" + name
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        writeFile(folder + "/" + name + ".json", text)
        return folder
    }

    static func entitled(_ store: String) throws -> Bool {
        try Binary.run(["check", F.appStoreUser, "premium", "--store", store, "--at", F.at(10)]).exitCode == 0
    }

    @Test func configBundleIDRefusesAnotherAppOnEveryPath() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, root) = Self.setUp(directory, appStore: ["bundle_id": "com.example"])
        let other = Self.notification(bundle: "com.other")
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let posted = try server.post("/hooks/entitlement/appstore", body: other)
        #expect(posted.status == 403, "\(posted.body)")
        #expect(server.cgiLog.contains("bundle id com.other is not this store's com.example"))
        let folder = Self.file(directory, "other", other)
        let ingest = try Binary.run(["ingest", "--from", folder, "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2, "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.stderr.contains("bundle id com.other is not this store's com.example"), "\(ingest.stderr)")
        let imported = try Binary.run(["import", folder + "/other.json", "--store", store, "--trust-root", root, "--user", "u1"])
        #expect(imported.exitCode == 4, "\(imported.stderr)")
        #expect(imported.stderr.contains("bundle id com.other is not this store's com.example"), "\(imported.stderr)")
        #expect(try !Self.entitled(store))
        // The store's own app goes through.
        #expect(try server.post("/hooks/entitlement/appstore", body: Self.notification(bundle: "com.example", uuid: "n-own")).status == 200)
        #expect(try Self.entitled(store))
    }

    @Test func secretsBundleIDBindsImportToo() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, root) = Self.setUp(directory, appStore: nil, secretsEntry: ["bundle_id": "com.example"])
        let folder = Self.file(directory, "other", Self.notification(bundle: "com.other"))
        let imported = try Binary.run(["import", folder + "/other.json", "--store", store, "--trust-root", root],
                                      environment: ["ENTITLEMENT_SECRETS": secrets])
        #expect(imported.exitCode == 4, "\(imported.stderr)")
        #expect(imported.stderr.contains("bundle id com.other is not this store's com.example"), "\(imported.stderr)")
    }

    @Test func filesThatDisagreeRefuseEveryPathLoudly() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, root) = Self.setUp(directory, appStore: ["bundle_id": "com.example"], secretsEntry: ["bundle_id": "com.other"])
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        #expect(try server.post("/hooks/entitlement/appstore", body: Self.notification(bundle: "com.example")).status == 403)
        #expect(try server.post("/hooks/entitlement/appstore", body: Self.notification(bundle: "com.other")).status == 403)
        let revenueCat = try server.post("/hooks/entitlement/revenuecat", body: F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0),
                                         headers: ["Authorization": F.secret])
        #expect(revenueCat.status == 403)
        let log = server.cgiLog
        #expect(log.contains("app_store.bundle_id is com.example but"), "\(log)")
        let folder = Self.file(directory, "own", Self.notification(bundle: "com.example"))
        let ingest = try Binary.run(["ingest", "--from", folder, "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2)
        #expect(ingest.stderr.contains("identity is ambiguous"), "\(ingest.stderr)")
        let imported = try Binary.run(["import", folder + "/own.json", "--store", store, "--trust-root", root], environment: ["ENTITLEMENT_SECRETS": secrets])
        #expect(imported.exitCode == 2)
        #expect(imported.stderr.contains("identity is ambiguous"), "\(imported.stderr)")
        #expect(try !Self.entitled(store))
    }

    @Test func aRefusedSecretsFileRefusesAppStoreTooAndSaysWhy() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, _) = Self.setUp(directory, appStore: nil, secretsEntry: ["bundle_id": "com.example"], mode: 0o644)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        #expect(try server.post("/hooks/entitlement/appstore", body: Self.notification(bundle: "com.example")).status == 403)
        let log = server.cgiLog
        #expect(log.contains("appstore: refused: refusing the secrets file"), "\(log)")
        #expect(try !Self.entitled(store))
    }
}
