import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementIngest
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Google Play RTDN through a Pub/Sub push: every notification code decodes, the push token
/// authenticates, and a notification records nothing until its purchase document is imported.
@Suite(.tags(.cli))
struct GooglePlayNotificationTests {
    /// A push envelope around `notification` (a decoded RTDN body).
    static func push(_ notification: [String: Any], messageID: String = "136969346945", eventTime: String = "1773576000000") -> String {
        var body: [String: Any] = ["version": "1.0", "packageName": "com.example.app", "eventTimeMillis": eventTime]
        for (key, value) in notification { body[key] = value }
        let data = Data(IngestFixtures.json(body).utf8).base64EncodedString()
        return IngestFixtures.json(["message": ["data": data, "messageId": messageID, "attributes": [String: String]()],
                                    "subscription": "projects/example/subscriptions/play"])
    }

    static func subscription(_ code: Int) -> String {
        push(["subscriptionNotification": ["version": "1.0", "notificationType": code, "purchaseToken": "gp-token-active"]])
    }

    @Test(arguments: Array(1...13) + Array(17...20))
    func everyNotificationTypeDecodes(_ code: Int) throws {
        let root = try #require(try JSONParser.parse(Self.subscription(code)).objectValue)
        let notification = try PlayNotification(envelope: root)
        #expect(notification.purchaseToken == "gp-token-active" && notification.messageID == "136969346945")
        #expect(notification.type == PlayNotification.names[code] && notification.type.hasPrefix("SUBSCRIPTION_"))
        #expect(notification.time == ISODate.parse("2026-03-15T12:00:00Z"))
        #expect(notification.effects.noChange?.contains("gp-token-active") == true)
    }

    @Test func voidedTestAndUnknownNotifications() throws {
        let voided = try PlayNotification(envelope: #require(try JSONParser.parse(Self.push(["voidedPurchaseNotification": [
            "purchaseToken": "gp-token-active", "orderId": "GPA.1", "productType": 1, "refundType": 1]])).objectValue))
        #expect(voided.kind == .voided(orderID: "GPA.1") && voided.type == "VOIDED_PURCHASE")
        let test = try PlayNotification(envelope: #require(try JSONParser.parse(Self.push(["testNotification": ["version": "1.0"]])).objectValue))
        #expect(test.kind == .test && test.purchaseToken == nil)
        #expect(throws: FieldError.self) { try PlayNotification(envelope: #require(try JSONParser.parse(Self.subscription(14)).objectValue)) }
        // Google's published envelope decodes to a type sketch, not JSON: malformed.
        let sample = try #require(readFile(repositoryRoot + "/Fixtures/events/googleplay/pubsub-push-envelope-google-sample.json"))
        #expect(throws: FieldError.self) { try PlayNotification(envelope: #require(try JSONParser.parse(sample).objectValue)) }
    }

    /// `webhook googleplay`: the push token in the URL or as a bearer token; replays are duplicates.
    @Test func webhookChecksThePushToken() {
        let directory = TemporaryDirectory()
        let (store, secrets) = StripeEventTests.store(in: directory)
        let body = Self.subscription(2)
        func post(query: String?, authorization: String? = nil) -> CLIResult {
            var environment = ["REQUEST_METHOD": "POST", "CONTENT_LENGTH": String(body.utf8.count), "GATEWAY_INTERFACE": "CGI/1.1"]
            if let query { environment["QUERY_STRING"] = query }
            if let authorization { environment["HTTP_AUTHORIZATION"] = authorization }
            return runCLI(["webhook", "googleplay", "--store", store, "--secrets", secrets], stdin: body, environment: environment)
        }
        func status(_ result: CLIResult) -> String { result.stdout.components(separatedBy: "\r\n").first ?? "" }
        #expect(status(post(query: nil)).hasPrefix("Status: 401"))
        #expect(status(post(query: "token=wrong")).hasPrefix("Status: 403"))
        #expect(status(post(query: "x=1&token=push-secret")).hasPrefix("Status: 200"))
        #expect(status(post(query: nil, authorization: "Bearer push-secret")).hasPrefix("Status: 200"))
        let spooled = (try? FileManager.default.subpathsOfDirectory(atPath: store))?.compactMap { readFile(store + "/" + $0) } ?? []
        #expect(!spooled.contains { $0.contains("push-secret") }, "the token never enters the store")
        #expect(runCLI(["check", "play-active@example.com", "premium", "--store", store]).exitCode == 1, "a notification alone records nothing")
    }
}

extension GooglePlayNotificationTests {
    /// A notification marks its purchase as awaiting its document (`ingest --status`); importing
    /// the document (dated after it) clears the mark.
    @Test func notificationsAwaitThePurchaseDocument() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = StripeEventTests.store(in: directory)
        writeFile(store + "/config.json", readFile(repositoryRoot + "/Fixtures/import/config.json")!)
        let renewed = Self.subscription(2)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: renewed).exitCode == 0)
        let status = runCLI(["ingest", "--status", "--store", store, "--secrets", secrets])
        #expect(status.stdout.contains("awaiting their document") && status.stdout.contains("gp-token-active: SUBSCRIPTION_RENEWED at 2026-03-15T12:00:00Z"),
                "\(status.stdout)")
        let json = try JSONParser.parse(runCLI(["ingest", "--status", "--store", store, "--secrets", secrets, "--json"]).stdout)
        #expect(json["awaiting_purchases"]?.arrayValue.count == 1)
        let imported = runCLI(["import", repositoryRoot + "/Fixtures/import/googleplay/purchase-active.json", "--at", "2026-03-15T12:05:00Z", "--store", store])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(!runCLI(["ingest", "--status", "--store", store, "--secrets", secrets]).stdout.contains("awaiting"))
        #expect(runCLI(["check", "play-active@example.com", "premium", "--store", store, "--at", "2026-03-15T12:05:00Z"]).exitCode == 0)
        // Test and price notifications await nothing.
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets],
                       stdin: Self.push(["testNotification": ["version": "1.0"]], messageID: "3")).exitCode == 0)
        #expect(!runCLI(["ingest", "--status", "--store", store, "--secrets", secrets]).stdout.contains("awaiting"))
    }
}
