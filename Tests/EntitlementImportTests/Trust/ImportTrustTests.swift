import Foundation
import Testing
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `import` verifies App Store signed data by default (docs/security.md): refusal is
/// exit 4 with the check named and nothing written; `--trust-root`, `ENTITLEMENT_TRUST_ROOTS`,
/// `--no-verify`, `config.json`'s `app_store` identity, and `verify`'s report of unverified data.
@Suite(.tags(.cli))
struct ImportTrustTests {
    static let transaction = #"""
        {"transactionId":"2000000000000101","originalTransactionId":"2000000000000101","bundleId":"com.example.app",
        "productId":"com.example.premium.monthly","purchaseDate":1772355600000,"expiresDate":1775034000000,
        "type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":1773576000000,
        "environment":"Production","transactionReason":"PURCHASE"}
        """#
    let chain = TestChain()
    let store = ImportTests.Store()

    /// A notification (decoded, A4) whose transaction is a JWS signed by the minted chain.
    func notification(_ jws: String, bundleID: String = "com.example.app") -> String {
        #"{"notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY","signedDate":1773576000000,"#
            + #""data":{"environment":"Production","appAppleId":1,"bundleId":"\#(bundleID)","signedTransactionInfo":"\#(jws)","status":1}}"#
    }

    /// Writes `text` and the minted root into the test's directory; their paths.
    func files(_ text: String) -> (document: String, root: String) {
        let document = store.directory.path + "/notification.json"
        let root = store.directory.path + "/root.der"
        writeFile(document, text)
        try! Data(chain.root.der).write(to: URL(fileURLWithPath: root))
        return (document, root)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
        runCLI(["import"] + arguments + ["--user", "alice", "--store", store.path], environment: environment, now: ImportTests.clock)
    }

    var profileExists: Bool { FileManager.default.fileExists(atPath: EntitlementStore(root: store.path).profilePath(for: "alice")) }

    @Test func signedNotificationImportsWithItsTrustRoot() throws {
        let (document, root) = files(notification(chain.sign(Self.transaction)))
        let result = run([document, "--trust-root", root, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("not verified"))
        let summary = try JSONParser.parse(result.stdout)
        #expect(summary["signatures_verified"] == .bool(true))
        #expect(summary["jws_decoded"] == .int(1))
        let stored = try #require(readFile(EntitlementStore(root: store.path).profilePath(for: "alice")))
        #expect(stored.contains(#""signature": "verified""#))
        #expect(runCLI(["verify", "--store", store.path]).exitCode == 0)
    }

    @Test func withoutTheTrustRootItIsRefusedAndNothingIsWritten() {
        let (document, _) = files(notification(chain.sign(Self.transaction)))
        let config = readFile(store.path + "/config.json")
        let result = run([document])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("data.signedTransactionInfo: certificate chain does not lead to a trusted root"))
        #expect(!profileExists)
        #expect(readFile(store.path + "/config.json") == config)
    }

    @Test func environmentVariableAddsTrustRoots() {
        let (document, root) = files(notification(chain.sign(Self.transaction)))
        let result = run([document], environment: ["ENTITLEMENT_TRUST_ROOTS": root])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(profileExists)
    }

    @Test func forgedTransactionIsRefusedByName() {
        let jws = chain.sign(Self.transaction)
        let parts = jws.components(separatedBy: ".")
        let forged = parts[0] + "." + JWSText.encode(Self.transaction.replacingOccurrences(of: "1775034000000", with: "4102444800000")) + "." + parts[2]
        let (document, root) = files(notification(forged))
        let result = run([document, "--trust-root", root])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("signature does not match"))
        #expect(!profileExists)
    }

    @Test func configuredBundleIDRefusesAnotherAppsData() {
        let config = #"{"schema_version": 1, "app_store": {"bundle_id": "com.example.other", "note": "kept"}, "entitlements": {"premium": {"products": ["com.example.premium.monthly"]}}}"#
        writeFile(store.path + "/config.json", config)
        let (document, root) = files(notification(chain.sign(Self.transaction)))
        let result = run([document, "--trust-root", root])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("bundle id com.example.app is not this store's com.example.other"))
        #expect(!profileExists)
        #expect(readFile(store.path + "/config.json") == config)
    }

    @Test func noVerifyKeepsTodaysBehaviourAndVerifyReportsIt() throws {
        let (document, _) = files(notification(chain.sign(Self.transaction)))
        let result = run([document, "--no-verify", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains(#"{"warning":"JWS signatures are not verified (--no-verify)"#))  // JSON under --json
        #expect(try JSONParser.parse(result.stdout)["signatures_verified"] == .bool(false))
        let report = runCLI(["verify", "--store", store.path])
        #expect(report.exitCode != 0)
        #expect(report.stdout.contains("transactions[0].vendor.appstore.signature") || report.stderr.contains("transactions[0].vendor.appstore.signature"))
    }

    @Test func noVerifyWithTrustRootIsAUsageError() {
        let (document, root) = files(notification(chain.sign(Self.transaction)))
        #expect(run([document, "--no-verify", "--trust-root", root]).exitCode == 2)
    }

    @Test func unreadableTrustRootIsAUsageError() {
        let (document, _) = files(notification(chain.sign(Self.transaction)))
        writeFile(store.directory.path + "/junk.der", "not a certificate")
        let result = run([document, "--trust-root", store.directory.path + "/junk.der"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("is not a DER or PEM certificate"))
    }

    @Test func applesSignedTestNotificationVerifiesWithTestCA() {
        let testCA = repositoryRoot + "/Fixtures/trust/appstore/testCA.der"
        let signed = repositoryRoot + "/Fixtures/trust/appstore/signed/testNotification"
        let verified = run([signed, "--trust-root", testCA])
        #expect(verified.exitCode == 0, "\(verified.stderr)")
        let refused = run([signed])
        #expect(refused.exitCode == 4)
        #expect(refused.stderr.contains("certificate chain does not lead to a trusted root"))
        #expect(!profileExists)
    }

    @Test func paddedJWSIsAcceptedAsDocumented() {
        // '=' padding is optional (docs/import.md section 2.1); it was skipped as "not a JWS".
        var payload = Self.transaction.replacingOccurrences(of: "\n", with: "")
        func encoded(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        while !encoded(payload).hasSuffix("=") { payload += " " }
        let header = encoded(#"{"alg":"ES256"}"#)
        let body = encoded(payload)
        let padded = header + "." + body + ".AAAA"
        #expect(padded.contains("="))
        #expect(JWS.looksLikeJWS(padded))
        let (document, _) = files(notification(padded))
        let result = run([document, "--no-verify"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("is not a JWS"))
        #expect(profileExists)
    }
}
