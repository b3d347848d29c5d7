import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Each App Store JWS of a run is verified once: the notification's signature when the request
/// is authenticated, its payload carried to the mapper (never decoded or checked again), each
/// nested JWS as the mapper reads it; a webhook's apply uses the events its acceptance read.
/// Counted through the verifier's `SignatureCounter`, not timed.
@Suite(.tags(.cli))
struct VerifyOnceTests {
    typealias F = IngestFixtures
    static let eventCount = 6

    /// A notification with signed transaction info only: two JWS.
    static func body(_ index: Int) -> String {
        F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "once-\(index)", signedAt: Int64(index),
                   transaction: ["transactionId": "\(2000 + index)", "originalTransactionId": "\(2000 + index)",
                                 "appAccountToken": "00000000-0000-4000-8000-00000000000\(index)"],
                   renewal: nil)
    }

    static func authenticator(_ counter: SignatureCounter) throws -> WebhookAuthenticator {
        let verifier = try AppStoreSignedDataVerifier(trustRoots: [F.chain.root.der], includeAppleRoot: false, bundleID: "com.example", counter: counter)
        return WebhookAuthenticator(secrets: nil, appStore: verifier)
    }

    static func request(_ index: Int, overHTTP: Bool) -> WebhookRequest {
        WebhookRequest(vendor: .appstore, body: Array(body(index).utf8), receivedAt: Date(timeIntervalSince1970: 1_767_225_600), overHTTP: overHTTP)
    }

    @Test func ingestVerifiesEachJWSOnce() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let counter = SignatureCounter()
        let runner = IngestRunner(store: EntitlementStore(root: store), authenticator: try Self.authenticator(counter), actor: "test")
        let units = (0..<Self.eventCount).map { IngestUnit(source: .line($0 + 1), request: Self.request($0, overHTTP: false)) }
        let report = try runner.run(units)
        #expect(report.counts["applied"] == Self.eventCount)
        #expect(counter.signatureChecks == 2 * Self.eventCount, "each event's two JWS, once each")
        #expect(counter.chainChecks == 1, "one chain for the whole run")
    }

    @Test func aWebhookVerifiesOnceFromAcceptanceToApply() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let counter = SignatureCounter()
        let handler = WebhookHandler(store: EntitlementStore(root: store), authenticator: try Self.authenticator(counter), actor: "test")
        let (response, accepted) = handler.accept(Self.request(0, overHTTP: true))
        #expect(response.status == 200)
        #expect(counter.signatureChecks == 2)
        #expect(handler.apply(try #require(accepted)) == nil)
        #expect(counter.signatureChecks == 2, "the apply reads no signature again")
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 0)
        #expect(runCLI(["check", "00000000-0000-4000-8000-000000000000", "premium", "--store", store, "--at", F.at(1)]).exitCode == 0)
    }
}
