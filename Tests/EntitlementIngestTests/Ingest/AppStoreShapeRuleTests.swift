import Foundation
import Testing
import EntitlementTestSupport

/// One rule per App Store shape for `import`, `ingest` and `webhook` (docs/ingest.md, "App Store"):
/// `appData` notifications, a notification without `signedDate`, a placeholder nested field,
/// and unsigned "Xcode" wrappers. Signed with the test chain (TestPKI), posted through lighttpd.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct AppStoreShapeRuleTests {
    typealias F = IngestFixtures

    /// What `webhook`, `ingest --from` and `import` answer for one body, in a fresh store each.
    struct Answers {
        var webhook: Int
        var webhookLog: String
        var ingest: CLIResult
        var importResult: CLIResult
        var entitledAfterWebhook: Bool
    }

    static func run(_ body: String, secretsEntry: [String: Any] = [:], importOptions: [String] = []) throws -> Answers {
        func setUp(_ directory: TemporaryDirectory) -> (store: String, secrets: String, root: String) {
            AppStoreIdentityTests.setUp(directory, appStore: ["bundle_id": "com.example"], secretsEntry: secretsEntry)
        }
        let directory = TemporaryDirectory()
        let (store, secrets, _) = setUp(directory)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let posted = try server.post("/hooks/entitlement/appstore", body: body)
        let entitled = try AppStoreIdentityTests.entitled(store)
        let secondDirectory = TemporaryDirectory(), thirdDirectory = TemporaryDirectory()
        let second = setUp(secondDirectory)
        let folder = AppStoreIdentityTests.file(directory, "body", body)
        let ingest = try Binary.run(["ingest", "--from", folder, "--store", second.store, "--secrets", second.secrets, "--json"])
        let third = setUp(thirdDirectory)
        let imported = try Binary.run(["import", folder + "/body.json", "--store", third.store, "--trust-root", third.root] + importOptions)
        return Answers(webhook: posted.status, webhookLog: server.cgiLog, ingest: ingest, importResult: imported, entitledAfterWebhook: entitled)
    }

    static func transaction(_ extra: [String: Any] = [:]) -> [String: Any] {
        var fields: [String: Any] = [
            "transactionId": "1000", "originalTransactionId": "1000", "productId": "monthly", "purchaseDate": F.base,
            "expiresDate": F.base + 30 * F.day, "type": "Auto-Renewable Subscription", "appAccountToken": F.appStoreUser,
            "inAppOwnershipType": "PURCHASED", "environment": "Production", "signedDate": F.base, "bundleId": "com.example",
        ]
        for (key, value) in extra { fields[key] = value }
        return fields
    }

    static func notification(_ payload: [String: Any], sign: Bool = true) -> String {
        let json = F.json(payload)
        let jws = sign ? F.chain.sign(json) : JWSText.encode(#"{"alg":"none"}"#) + "." + JWSText.encode(json) + "."
        return F.json(["signedPayload": jws])
    }

    @Test func rescindConsentReadsItsIdentityFromAppDataAndIsRecorded() throws {
        let body = Self.notification(["notificationType": "RESCIND_CONSENT", "notificationUUID": "r1", "signedDate": F.base, "version": "2.0",
                                      "appData": ["appAppleId": 1234, "bundleId": "com.example", "environment": "Production"]])
        let answers = try Self.run(body)
        #expect(answers.webhook == 200, "\(answers.webhookLog)")
        #expect(answers.ingest.exitCode == 0, "\(answers.ingest.stdout)\(answers.ingest.stderr)")
        #expect(answers.ingest.stdout.contains("\"applied\": 1"))
        #expect(answers.importResult.exitCode == 0, "\(answers.importResult.stderr)")
        // Another app's appData is refused like another app's data.
        let other = Self.notification(["notificationType": "RESCIND_CONSENT", "notificationUUID": "r2", "signedDate": F.base, "version": "2.0",
                                       "appData": ["bundleId": "com.other", "environment": "Production"]])
        let refused = try Self.run(other)
        #expect(refused.webhook == 403)
        #expect(refused.webhookLog.contains("bundle id com.other is not this store's com.example"))
    }

    @Test func aNotificationWithoutSignedDateIsJudgedNowOnEveryPath() throws {
        let body = Self.notification(["notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": "s1", "version": "2.0",
                                      "data": ["bundleId": "com.example", "environment": "Production", "signedTransactionInfo": F.jws(Self.transaction())]])
        let answers = try Self.run(body)
        #expect(answers.webhook == 200, "\(answers.webhookLog)")
        #expect(answers.entitledAfterWebhook)
        #expect(answers.ingest.exitCode == 0, "\(answers.ingest.stdout)\(answers.ingest.stderr)")
        #expect(answers.importResult.exitCode == 0, "\(answers.importResult.stderr)")
    }

    @Test func aPlaceholderNestedFieldIsSkippedOnEveryPath() throws {
        let body = Self.notification(["notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": "p1", "signedDate": F.base,
                                      "version": "2.0", "data": ["bundleId": "com.example", "environment": "Production",
                                                                 "signedTransactionInfo": F.jws(Self.transaction()),
                                                                 "signedRenewalInfo": "signed_renewal_info_value"]])
        let answers = try Self.run(body)
        #expect(answers.webhook == 200, "\(answers.webhookLog)")
        #expect(answers.entitledAfterWebhook)
        #expect(answers.ingest.exitCode == 0, "\(answers.ingest.stdout)\(answers.ingest.stderr)")
        #expect(answers.importResult.exitCode == 0)
        #expect(answers.importResult.stderr.contains("signedRenewalInfo is not a JWS"), "\(answers.importResult.stderr)")
        // A JWS-shaped nested field must verify: one forged byte refuses the notification everywhere.
        // A character in the middle of the signature: all six of its bits are the signature's
        // (the last character's are partly padding, and the signature differs each run).
        var forged = Array(F.jws(Self.transaction()))
        let position = forged.count - 40
        forged[position] = forged[position] == "A" ? "B" : "A"
        let forgedText = String(forged)
        let broken = Self.notification(["notificationType": "SUBSCRIBED", "notificationUUID": "p2", "signedDate": F.base, "version": "2.0",
                                        "data": ["bundleId": "com.example", "environment": "Production", "signedTransactionInfo": forgedText]])
        let refused = try Self.run(broken)
        #expect(refused.webhook == 403, "\(refused.webhookLog)")
        #expect(refused.ingest.exitCode == 2)
        #expect(refused.importResult.exitCode == 4)
    }

    /// The attack: an unsigned wrapper saying `Xcode` at its top level around a genuinely signed
    /// Production transaction, dated 2099. Apple puts a notification's environment in `data`.
    @Test func anUnsignedXcodeWrapperNeverCarriesAppleData() throws {
        let inner = F.jws(Self.transaction())
        let topLevel = Self.notification(["notificationType": "SUBSCRIBED", "notificationUUID": "x1", "signedDate": 4_070_908_800_000,
                                          "environment": "Xcode", "version": "2.0",
                                          "data": ["bundleId": "com.example", "environment": "Production", "signedTransactionInfo": inner]], sign: false)
        let first = try Self.run(topLevel, secretsEntry: ["allow_xcode": true], importOptions: ["--allow-xcode"])
        #expect(first.webhook == 403, "\(first.webhookLog)")
        #expect(first.webhookLog.contains("JWS algorithm 'none' is not ES256"), "\(first.webhookLog)")
        #expect(!first.entitledAfterWebhook)
        #expect(first.ingest.exitCode == 2)
        #expect(first.importResult.exitCode == 4)
        // `Xcode` where Apple puts it, around Production data: refused all the same.
        let inData = Self.notification(["notificationType": "SUBSCRIBED", "notificationUUID": "x2", "signedDate": F.base, "version": "2.0",
                                        "data": ["bundleId": "com.example", "environment": "Xcode", "signedTransactionInfo": inner]], sign: false)
        let second = try Self.run(inData, secretsEntry: ["allow_xcode": true], importOptions: ["--allow-xcode"])
        #expect(second.webhook == 403, "\(second.webhookLog)")
        #expect(second.webhookLog.contains("environment Production inside a Xcode notification"), "\(second.webhookLog)")
        #expect(second.ingest.exitCode == 2)
        #expect(second.importResult.exitCode == 4)
        #expect(second.importResult.stderr.contains("environment Production inside a Xcode notification"), "\(second.importResult.stderr)")
    }

    @Test func unsignedXcodeDataDatedInTheFutureIsRefused() throws {
        let xcode = Self.transaction(["environment": "Xcode", "signedDate": 4_070_908_800_000])
        let body = Self.notification(["notificationType": "SUBSCRIBED", "notificationUUID": "f1", "signedDate": 4_070_908_800_000, "version": "2.0",
                                      "data": ["bundleId": "com.example", "environment": "Xcode",
                                               "signedTransactionInfo": JWSText.encode(#"{"alg":"none"}"#) + "." + JWSText.encode(F.json(xcode)) + "."]],
                                     sign: false)
        let answers = try Self.run(body, secretsEntry: ["allow_xcode": true], importOptions: ["--allow-xcode"])
        #expect(answers.webhook == 403, "\(answers.webhookLog)")
        #expect(answers.webhookLog.contains("signedDate 2099-01-01T00:00:00Z of data accepted unsigned is more than 300 seconds after the current time"),
                "\(answers.webhookLog)")
        #expect(answers.ingest.exitCode == 2)
        #expect(answers.importResult.exitCode == 4)
    }
}
