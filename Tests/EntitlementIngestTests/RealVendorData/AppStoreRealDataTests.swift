import Foundation
import Testing
import EntitlementTestSupport

/// Apple's own signed test data (app-store-server-library-swift and -java, MIT: Fixtures/trust/
/// appstore) through the three paths that take signed App Store data, `webhook` behind lighttpd,
/// `ingest --from` and `import`, with Apple's test root given as DER, as PEM and as
/// `openssl x509 -text` output, in the secrets file or as `--trust-root`. What each shape gets
/// is the table in docs/ingest.md, "App Store: Apple's own test data".
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct AppStoreRealDataTests {
    static let apple = repositoryRoot + "/Fixtures/trust/appstore"

    /// One of Apple's signed test files as a webhook body.
    static func body(_ name: String) throws -> String {
        let jws = try #require(readFile(apple + "/signed/" + name)).trimmingCharacters(in: .whitespacesAndNewlines)
        return "{\"signedPayload\": \"\(jws)\"}"
    }

    /// Apple's shapes, what every path answers, and the refusal each names (nil: accepted).
    struct Shape: Sendable, CustomTestStringConvertible {
        var file: String
        var webhook: Int
        var importExit: Int32
        var ingestColumn: String
        var refusal: String?
        var testDescription: String { file }
    }

    static let shapes = [
        Shape(file: "testNotification", webhook: 200, importExit: 0, ingestColumn: "applied", refusal: nil),
        Shape(file: "wrongBundleId", webhook: 403, importExit: 4, ingestColumn: "unauthenticated",
              refusal: "bundle id com.example.wrong is not this store's com.example"),
        Shape(file: "missingX5CHeaderClaim", webhook: 403, importExit: 4, ingestColumn: "unauthenticated",
              refusal: "JWS header has no x5c certificate chain"),
    ]

    /// A store for `com.example` and a secrets file trusting `root` (a file of Fixtures/trust/appstore).
    static func setUp(_ directory: TemporaryDirectory, root: String, appStore: [String: Any] = ["bundle_id": "com.example"])
        -> (store: String, secrets: String, root: String) {
        let config: [String: Any] = ["schema_version": 1, "entitlements": ["premium": ["products": ["monthly"]]], "app_store": appStore]
        let store = directory.store(config: IngestFixtures.json(config))
        let copy = directory.path + "/" + (root as NSString).lastPathComponent
        try? FileManager.default.copyItem(atPath: apple + "/" + root, toPath: copy)
        let secrets = directory.path + "/secrets.json"
        writeFile(secrets, IngestFixtures.json(["appstore": ["trust_roots": [copy]]]))
        chmod(secrets, 0o600)
        return (store, secrets, copy)
    }

    @Test(arguments: ["testCA.der", "pem/testCA.pem", "pem/testCA.text.pem"], shapes)
    func appleSignedDataThroughWebhookIngestAndImport(_ root: String, _ shape: Shape) throws {
        let directory = TemporaryDirectory()
        let (store, secrets, rootFile) = Self.setUp(directory, root: root)
        let body = try Self.body(shape.file)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let posted = try server.post("/hooks/entitlement/appstore", body: body)
        #expect(posted.status == shape.webhook, "\(posted.body) \(server.cgiLog)")
        if let refusal = shape.refusal { #expect(server.cgiLog.contains(refusal), "\(server.cgiLog)") }
        // ingest --from a folder holding the body, into a second store (the first has it applied).
        let otherDirectory = TemporaryDirectory(), plainDirectory = TemporaryDirectory()
        let other = Self.setUp(otherDirectory, root: root)
        let folder = directory.path + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        writeFile(folder + "/\(shape.file).json", body)
        let ingest = try Binary.run(["ingest", "--from", folder, "--store", other.store, "--secrets", other.secrets, "--json"])
        #expect(ingest.stdout.contains("\"\(shape.ingestColumn)\": 1"), "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.exitCode == (shape.refusal == nil ? 0 : 2))
        if let refusal = shape.refusal { #expect(ingest.stderr.contains(refusal), "\(ingest.stderr)") }
        // import, with the same root given as --trust-root instead.
        let plain = Self.setUp(plainDirectory, root: root)
        let imported = try Binary.run(["import", folder + "/\(shape.file).json", "--store", plain.store, "--trust-root", rootFile])
        #expect(imported.exitCode == shape.importExit, "\(imported.stdout)\(imported.stderr)")
        if let refusal = shape.refusal { #expect(imported.stderr.contains(refusal), "\(imported.stderr)") }
    }

    @Test func aLegacyReceiptIsNotAJWS() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, _) = Self.setUp(directory, root: "testCA.der")
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let posted = try server.post("/hooks/entitlement/appstore", body: try Self.body("legacyTransaction"))
        #expect(posted.status == 400)
        #expect(posted.body.contains("signedPayload is not a JWS"))
    }

    /// The store's environment binds Apple's Sandbox data: refused on every path, by name.
    @Test func aProductionStoreRefusesAppleSandboxNotification() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, root) = Self.setUp(directory, root: "pem/testCA.pem", appStore: ["bundle_id": "com.example", "environment": "Production"])
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let body = try Self.body("testNotification")
        #expect(try server.post("/hooks/entitlement/appstore", body: body).status == 403)
        #expect(server.cgiLog.contains("environment Sandbox is not the expected Production"), "\(server.cgiLog)")
        writeFile(directory.path + "/n.json", body)
        let imported = try Binary.run(["import", directory.path + "/n.json", "--store", store, "--trust-root", root])
        #expect(imported.exitCode == 4)
        #expect(imported.stderr.contains("environment Sandbox is not the expected Production"), "\(imported.stderr)")
    }

    /// As Apple's libraries do, the app Apple id is checked for production notifications only:
    /// Apple's Sandbox notification (appAppleId 1234) passes a store of another app id.
    @Test func theAppAppleIDBindsProductionOnly() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, _) = Self.setUp(directory, root: "testCA.der", appStore: ["bundle_id": "com.example", "app_apple_id": 9999])
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        #expect(try server.post("/hooks/entitlement/appstore", body: try Self.body("testNotification")).status == 200)
    }

    /// Apple's Xcode-signed transaction (java-test-resources/xcode): accepted unverified only
    /// with `--allow-xcode`, and marked so.
    @Test func appleXcodeTransactionNeedsAllowXcode() throws {
        let directory = TemporaryDirectory()
        let (store, _, _) = Self.setUp(directory, root: "testCA.der", appStore: ["bundle_id": "com.example.naturelab.backyardbirds.example"])
        let file = Self.apple + "/xcode/xcode-signed-transaction"
        let refused = try Binary.run(["import", file, "--store", store, "--user", "u1"])
        #expect(refused.exitCode == 4)
        #expect(refused.stderr.contains("environment Xcode is accepted only with --allow-xcode"), "\(refused.stderr)")
        let accepted = try Binary.run(["import", file, "--store", store, "--user", "u1", "--allow-xcode", "--update-config"])
        #expect(accepted.exitCode == 0, "\(accepted.stderr)")
        #expect(readFile(store + "/profiles/u1.json")?.contains("\"unverified\"") == true)
    }
}

/// Apple's decoded notification models (app-store-server-library-swift, MIT: Fixtures/trust/
/// appstore/models), `LocalTesting` with placeholder nested fields, wrapped unsigned as StoreKit
/// testing would send them: refused without `allow_xcode`; with it, verified as local data,
/// their placeholders skipped, recorded and answered 200 on every path.
extension AppStoreRealDataTests {
    static func unsignedModel(_ name: String) throws -> String {
        let model = try #require(readFile(apple + "/models/" + name)).trimmingCharacters(in: .whitespacesAndNewlines)
        let jws = JWSText.encode(#"{"alg":"none"}"#) + "." + JWSText.encode(model) + "."
        return "{\"signedPayload\": \"\(jws)\"}"
    }

    @Test(arguments: ["signedNotification.json", "signedSummaryNotification.json"])
    func appleLocalTestingModelsNeedAllowXcode(_ name: String) throws {
        let body = try Self.unsignedModel(name)
        let directory = TemporaryDirectory()
        let (store, secrets, _) = Self.setUp(directory, root: "testCA.der")
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        #expect(try server.post("/hooks/entitlement/appstore", body: body).status == 403)
        #expect(server.cgiLog.contains("environment LocalTesting is accepted only with --allow-xcode"), "\(server.cgiLog)")
        writeFile(secrets, IngestFixtures.json(["appstore": ["allow_xcode": true]]))
        let accepted = try server.post("/hooks/entitlement/appstore", body: body)
        #expect(accepted.status == 200, "\(accepted.body) \(server.cgiLog)")
        let folder = directory.path + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        writeFile(folder + "/model.json", body)
        let otherDirectory = TemporaryDirectory()
        let other = Self.setUp(otherDirectory, root: "testCA.der")
        writeFile(other.secrets, IngestFixtures.json(["appstore": ["allow_xcode": true]]))
        let ingest = try Binary.run(["ingest", "--from", folder, "--store", other.store, "--secrets", other.secrets, "--json"])
        #expect(ingest.exitCode == 0, "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.stdout.contains("\"applied\": 1"))
        let refused = try Binary.run(["import", folder + "/model.json", "--store", other.store])
        #expect(refused.exitCode == 4)
        #expect(refused.stderr.contains("environment LocalTesting is accepted only with --allow-xcode"), "\(refused.stderr)")
        let imported = try Binary.run(["import", folder + "/model.json", "--store", other.store, "--allow-xcode"])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
    }
}
