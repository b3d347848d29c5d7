import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// The pure parts: detection, JWS, paths, splitting, merge and reconciliation. No I/O.
    @Suite(.tags(.unit))
    struct Units {
        @Test(arguments: [
            ("{\"transactionId\": \"1\"}", DocumentSignature.appStoreTransaction),
            ("[\"a.b.c\"]", .appStoreTransactions),
            ("{\"autoRenewStatus\": 1}", .appStoreRenewalInfo),
            ("{\"notificationType\": \"TEST\", \"data\": {}}", .appStoreNotification),
            ("{\"signedPayload\": \"x\"}", .appStoreSignedNotification),
            ("{\"data\": [], \"bundleId\": \"b\"}", .appStoreStatuses),
            ("{\"signedTransactions\": []}", .appStoreHistory),
            ("{\"subscriber\": {}}", .revenueCatSubscriber),
            ("{\"paid_access_levels\": {}}", .adaptyProfile),
            ("{\"data\": {\"profile_id\": \"p\"}}", .adaptyEnvelope),
            ("[{\"id\": \"premium\", \"renew_state\": 1}]", .qonversionEntitlements),
            ("{\"permissions\": []}", .qonversionPermissions),
            ("{\"success\": true, \"data\": {\"permissions\": []}}", .qonversionEnvelope),
        ])
        func detection(_ text: String, _ signature: DocumentSignature) throws {
            #expect(try FormatDetector.detect(JSONParser.parse(text), format: nil, file: "f") == signature)
            #expect(try FormatDetector.detect(JSONParser.parse(text), format: signature.format, file: "f") == signature)
        }

        @Test func everyFixtureMatchesExactlyOneSignature() throws {
            for directory in ["appstore", "revenuecat", "adapty", "qonversion"] {
                for name in try FileManager.default.contentsOfDirectory(atPath: fixtures + "/" + directory) where !name.contains("malformed") {
                    let text = try #require(readFile(fixtures + "/\(directory)/\(name)"))
                    let value = try JSONParser.parse(text, allowTrailingCommas: true)
                    let matching = DocumentSignature.allCases.filter { $0.matches(value) }
                    #expect(matching.count == 1, "\(directory)/\(name)")
                    #expect(matching.first?.format.rawValue == directory, "\(directory)/\(name)")
                }
            }
        }

        @Test func jwsShapeAndDecoding() {
            #expect(JWS.looksLikeJWS("eyJh.eyJi.c2ln"))
            #expect(JWS.looksLikeJWS("  eyJh.eyJi.\n"))
            #expect(!JWS.looksLikeJWS("signed_transaction_one"))
            #expect(!JWS.looksLikeJWS("a.b"))
            #expect(!JWS.looksLikeJWS("a.b.c.d"))
            #expect(!JWS.looksLikeJWS("a+.b.c"))
            // {"alg":"none"} . {"x":1} with no padding in either part.
            let header = "eyJhbGciOiJub25lIn0", payload = "eyJ4IjoxfQ"
            #expect(JWS.payload(of: "\(header).\(payload).") == JSONObject([("x", .number("1"))]))
            #expect(JWS.payload(of: "\(header).bm90IGpzb24.") == nil, "payload is not JSON")
            #expect(JWS.payload(of: "eyJ4IjoxfQ.WzFd.") == nil, "payload is not an object")
            #expect(JWS.base64URLDecode("-_8") == [0xFB, 0xFF])
            #expect(JWS.base64URLDecode("a") == nil)
            #expect(JWS.shortQuote(String(repeating: "x", count: 40)) == "\"" + String(repeating: "x", count: 30) + "…\"")
        }

        @Test func paths() {
            #expect(ImportPath.member("", "request_date") == "request_date")
            #expect(ImportPath.member("subscriber.subscriptions", "sub1") == "subscriber.subscriptions.sub1")
            #expect(ImportPath.member("subscriptions", "com.example.monthly") == "subscriptions[\"com.example.monthly\"]")
            #expect(ImportPath.member("x", "a\"b") == "x[\"a\\\"b\"]")
            #expect(ImportPath.member("x", "9lives") == "x[\"9lives\"]")
            #expect(ImportPath.index("", 3) == "[3]")
            #expect(ImportPath.payload("data.signedTransactionInfo") + ".expiresDate" == "data.signedTransactionInfo#payload.expiresDate")
            #expect(ImportPath.show(.string(String(repeating: "y", count: 60))).count == 40)
        }

        @Test func splitting() {
            let pieces = InputSplitter.split(Array("{\"a\": \"}{\"}\n[1,\n 2] x.y.z\n\n{\"b\":1}{\"c\":2}".utf8))
            #expect(pieces.map { String(decoding: $0.bytes, as: UTF8.self) } == ["{\"a\": \"}{\"}", "[1,\n 2]", "x.y.z", "{\"b\":1}", "{\"c\":2}"])
            #expect(pieces.map(\.line) == [1, 2, 3, 5, 5])
            #expect(pieces.map(\.column) == [1, 1, 5, 1, 8])
            #expect(InputSplitter.split(Array(" \n\t".utf8)).isEmpty)
            #expect(InputSplitter.split(Array("{\"open\": [".utf8)).count == 1)
        }

        @Test func vendorDates() {
            #expect(VendorDate.fromEpochMilliseconds(1698148950000) == ISODate.parse("2023-10-24T12:02:30Z"))
            #expect(VendorDate.fromEpochMilliseconds(1773576000123) == ISODate.parse("2026-03-15T12:00:00.123Z"))
            #expect(VendorDate.fromEpochMilliseconds(-1) == ISODate.parse("1969-12-31T23:59:59.999Z"))
            #expect(VendorDate.fromEpochSeconds(1586369519) == ISODate.parse("2020-04-08T18:11:59Z"))
            // Xcode signs fractional milliseconds; Apple's libraries read the whole millisecond.
            #expect(VendorDate.fromEpochMilliseconds(1697679936049.7297) == ISODate.parse("2023-10-19T01:45:36.049Z"))
            // Out of range is nil (an error naming the field), never an overflow trap.
            for extreme in [-9_223_372_036_854_775_808.0, -9.223_372_036_854_774e18, 9.223_372_036_854_775e18, .infinity, .nan] {
                #expect(VendorDate.fromEpochMilliseconds(extreme) == nil)
            }
            #expect(VendorDate.fromEpochMilliseconds(253_402_300_799_000).map(ISODate.format) == "9999-12-31T23:59:59Z")
            #expect(VendorDate.fromEpochMilliseconds(253_402_300_799_001) == nil)
            #expect(VendorDate.fromEpochMilliseconds(-62_135_596_800_000) == ISODate.writableRange.lowerBound)
            #expect(VendorDate.fromEpochMilliseconds(-62_135_596_800_001) == nil)
            #expect(ISODate.parse("2020-03-26T16:24:19.497674+0000") != nil)
        }

        @Test func appleTypes() {
            typealias P = AppStorePayloads
            #expect(P.transactionType("Non-Consumable", expiresAt: nil, offerType: nil, discount: nil, price: nil, isRenewal: false) == .nonConsumablePurchase)
            #expect(P.transactionType("Consumable", expiresAt: nil, offerType: nil, discount: nil, price: nil, isRenewal: false) == .consumablePurchase)
            #expect(P.transactionType("Non-Renewing Subscription", expiresAt: nil, offerType: nil, discount: nil, price: nil, isRenewal: false).rawValue == "non_renewing_subscription")
            let later = Date(timeIntervalSince1970: 1)
            #expect(P.transactionType(nil, expiresAt: later, offerType: 1, discount: nil, price: 0, isRenewal: true) == .trialStarted)
            #expect(P.transactionType(nil, expiresAt: later, offerType: 1, discount: "PAY_AS_YOU_GO", price: 100, isRenewal: false) == .introStarted)
            #expect(P.transactionType(nil, expiresAt: later, offerType: 3, discount: nil, price: 100, isRenewal: true) == .subscriptionRenewed)
            #expect(P.transactionType(nil, expiresAt: nil, offerType: nil, discount: nil, price: nil, isRenewal: false) == .nonConsumablePurchase)
            #expect(P.transactionType("Something New", expiresAt: nil, offerType: nil, discount: nil, price: nil, isRenewal: false).rawValue == "Something New")
            #expect(P.environment("Xcode") == .sandbox && P.environment("Production") == .production && P.environment("Other").rawValue == "Other")
            #expect(P.revocationReason(1) == "refunded" && P.revocationReason(0) == "other" && P.revocationReason(7) == "7")
        }

        @Test func mergeIsIdempotentAndPure() throws {
            let document = try DocumentMapper.map(Array(try #require(readFile(fixtures + "/revenuecat/subscriber-active.json")).utf8), file: "f", format: nil, jws: .decodeOnly)
            let now = ImportTests.clock
            let (first, report) = ProfileMerger.merge(document, into: nil, userID: "u", newProfileID: "id-1", now: now)
            #expect(report.createdProfile && report.transactionsAdded.count == 2 && report.changed)
            #expect(first.profileID == "id-1" && first.createdAt == ISODate.parse("2025-12-01T08:00:00Z"))
            let (second, again) = ProfileMerger.merge(document, into: first, userID: "u", newProfileID: "id-2", now: now.addingTimeInterval(99))
            #expect(!again.changed && again.transactionsUnchanged.count == 2 && again.renewalsUnchanged.count == 2)
            #expect(second == first)
            #expect(JSONWriter().string(second.json) == JSONWriter().string(first.json))
        }

        @Test func configurationExtension() {
            let configuration = ProductConfiguration(entitlements: [.init(id: "premium", products: ["a"])])
            let (extended, added) = ConfigurationExtender.extend(configuration, with: [
                ProductMapping(entitlement: "premium", productID: "a"), ProductMapping(entitlement: "premium", productID: "b"),
                ProductMapping(entitlement: "tip", productID: "t"),
            ])
            #expect(extended.entitlement("premium")?.products == ["a", "b"])
            #expect(extended.entitlement("tip")?.products == ["t"])
            #expect(added == [ConfigAddition(entitlement: "premium", productID: "b", createdEntitlement: false),
                              ConfigAddition(entitlement: "tip", productID: "t", createdEntitlement: true)])
        }

        @Test func reconciliationUsesOnlyTheDocument() throws {
            let document = try DocumentMapper.map(Array(try #require(readFile(fixtures + "/revenuecat/subscriber-disagreement.json")).utf8), file: "f", format: nil, jws: .decodeOnly)
            let configuration = ProductConfiguration(entitlements: [.init(id: "premium", products: ["com.example.premium.monthly"])])
            let rows = Reconciler.reconcile(document, configuration: configuration, at: ImportTests.documentTime)
            #expect(rows.count == 1)
            #expect(rows.first?.result == .disagree && rows.first?.ours == .active && rows.first?.vendorState == "expired")
            // A month earlier the purchase of 2026-03-01 was not recorded yet: ours is never.
            let earlier = Reconciler.reconcile(document, configuration: configuration, at: ISODate.parse("2026-02-15T00:00:00Z")!)
            #expect(earlier.first?.ours == .never)
        }
    }
}
