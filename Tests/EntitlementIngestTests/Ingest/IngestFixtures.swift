import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The project's own webhook bodies, written from the vendors' documented fields
/// (../shared/vendor-events/README.md); no vendor sample is copied.
enum IngestFixtures {
    /// 2026-01-01T00:00:00Z in milliseconds; events are placed relative to it.
    static let base: Int64 = 1_767_225_600_000
    static let day: Int64 = 86_400_000
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["monthly"]}}}"#
    static let secret = "Bearer test-secret"
    /// The customer of the App Store fixtures (their appAccountToken).
    static let appStoreUser = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

    /// A RevenueCat webhook body; `extra` adds or overrides event fields.
    static func revenueCat(_ type: String, id: String, at offset: Int64, user: String? = "alice", transaction: String = "t1",
                           original: String = "t1", purchasedAt: Int64 = 0, expiresAt: Int64? = 30, extra: [String: Any] = [:]) -> String {
        var event: [String: Any] = [
            "type": type, "id": id, "event_timestamp_ms": base + offset * day, "product_id": "monthly", "entitlement_ids": ["premium"],
            "period_type": "NORMAL", "purchased_at_ms": base + purchasedAt * day, "store": "APP_STORE", "environment": "PRODUCTION",
            "transaction_id": transaction, "original_transaction_id": original,
        ]
        if let user { event["app_user_id"] = user }
        if let expiresAt { event["expiration_at_ms"] = base + expiresAt * day }
        for (key, value) in extra { event[key] = value }
        return json(["api_version": "1.0", "event": event])
    }

    /// The test chain every App Store fixture is signed with (minted through libcrypto by TestPKI);
    /// `store(in:)` trusts its root through the secrets file's `appstore.trust_roots`.
    nonisolated(unsafe) static let chain = TestChain()

    /// An App Store notification body `{"signedPayload": JWS}` with signed transaction and renewal info.
    static func appStore(_ type: String, subtype: String? = nil, uuid: String, signedAt offset: Int64, transaction: [String: Any]? = [:],
                         renewal: [String: Any]? = [:]) -> String {
        let signedDate = base + offset * day
        var data: [String: Any] = ["bundleId": "com.example", "environment": "Production"]
        if var transaction {
            let defaults: [String: Any] = [
                "transactionId": "1000", "originalTransactionId": "1000", "productId": "monthly", "purchaseDate": base,
                "expiresDate": base + 30 * day, "type": "Auto-Renewable Subscription", "appAccountToken": appStoreUser,
                "inAppOwnershipType": "PURCHASED", "environment": "Production", "signedDate": signedDate, "bundleId": "com.example",
            ]
            for (key, value) in defaults where transaction[key] == nil { transaction[key] = value }
            data["signedTransactionInfo"] = jws(transaction.filter { !($0.value is NSNull) })
        }
        if var renewal {
            let defaults: [String: Any] = ["originalTransactionId": "1000", "autoRenewStatus": 1, "autoRenewProductId": "monthly",
                                           "productId": "monthly", "signedDate": signedDate, "environment": "Production"]
            for (key, value) in defaults where renewal[key] == nil { renewal[key] = value }
            data["signedRenewalInfo"] = jws(renewal.filter { !($0.value is NSNull) })
        }
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "signedDate": signedDate, "version": "2.0", "data": data]
        if let subtype { payload["subtype"] = subtype }
        return json(["signedPayload": jws(payload)])
    }

    /// A compact JWS of `payload`, signed by the test chain's leaf.
    static func jws(_ payload: [String: Any]) -> String { chain.sign(json(payload)) }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A store with `config`, and a secrets file (mode 0600) with RevenueCat's header value.
    static func store(in directory: TemporaryDirectory) -> (store: String, secrets: String) {
        let store = directory.store(config: config)
        let secrets = directory.path + "/secrets.json"
        let root = directory.path + "/test-root.der"
        _ = FileManager.default.createFile(atPath: root, contents: Data(chain.root.der))
        writeFile(secrets, json(["revenuecat": ["authorization": secret], "adapty": ["authorization": "adapty-secret"],
                                 "qonversion": ["authorization": "Basic q-secret"],
                                 "appstore": ["bundle_id": "com.example", "trust_roots": [root]]]))
        chmod(secrets, 0o600)
        return (store, secrets)
    }

    /// The environment of a CGI request.
    static func cgi(_ body: String, authorization: String? = secret, method: String = "POST") -> [String: String] {
        var environment = ["REQUEST_METHOD": method, "CONTENT_LENGTH": String(body.utf8.count), "GATEWAY_INTERFACE": "CGI/1.1"]
        if let authorization { environment["HTTP_AUTHORIZATION"] = authorization }
        return environment
    }
}

/// One row of an event table (docs/ingest.md): bodies ingested in order, then what
/// `check USER premium` answers on `day` (days after `IngestFixtures.base`).
struct IngestEventCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bodies: [String]
    var day: Double
    var state: String
    var user = "alice"
    var testDescription: String { name }
}

extension IngestFixtures {
    /// `day` days after `base`, as `--at` takes it.
    static func at(_ day: Double) -> String { ISODate.format(Date(timeIntervalSince1970: Double(base) / 1000 + day * 86_400)) }

    /// Ingests the case's bodies into a new store (every one applied), then expects `check`'s
    /// state on its day and a clean `verify`.
    static func expectState(_ item: IngestEventCase, sourceLocation: SourceLocation = #_sourceLocation) {
        let directory = TemporaryDirectory()
        let (store, secrets) = self.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: item.bodies.joined(separator: "\n"))
        #expect(ingest.exitCode == 0, "\(ingest.stdout)\(ingest.stderr)", sourceLocation: sourceLocation)
        #expect(ingest.stdout.contains("\(item.bodies.count) applied"), "\(ingest.stdout)", sourceLocation: sourceLocation)
        let check = runCLI(["check", item.user, "premium", "--store", store, "--at", at(item.day), "--json"])
        #expect(check.stdout.contains("\"state\": \"\(item.state)\""), "\(check.stdout)", sourceLocation: sourceLocation)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0, sourceLocation: sourceLocation)
    }
}

extension IngestFixtures {
    /// Every file of the store but locks and the journal, by path: a run that must change nothing is compared byte for byte.
    static func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  !path.hasSuffix(".lock"), !path.contains("journal") else { continue }
            files[path] = FileManager.default.contents(atPath: root + "/" + path)
        }
        return files
    }
}
