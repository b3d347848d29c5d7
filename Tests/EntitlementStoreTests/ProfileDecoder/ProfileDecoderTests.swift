import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// The byte decoder (`ProfileDecoder`) against the tree path, on generated profiles:
    /// it reads the same profile, the rewrite is the same bytes, and where it gives up or
    /// the file is bad, the tree path's answer (or error) is the one that counts.
    struct ProfileDecoderTests {
        /// Nil when the two paths agree on `bytes`, else what differs (the fuzz harness's check).
        static func disagreement(_ bytes: [UInt8]) -> String? { ProfileFuzzTarget.check(bytes) }

        @Test func generatedProfilesDecodeAsTheTreeDoes() {
            var random = SplitMix64(seed: 14_0001)
            var escapeFree = 0
            for round in 0..<600 {
                let profile = ProfileGenerator.richProfile(&random)
                let writer = [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)][round % 3]
                let bytes = writer.bytes(profile.json)
                #expect(Self.disagreement(bytes) == nil, "round \(round)")
                // Files without escapes never need the tree.
                if !bytes.contains(UInt8(ascii: "\\")) {
                    escapeFree += 1
                    #expect(ProfileDecoder.decode(bytes) != nil, "round \(round) fell back")
                }
                for _ in 0..<8 {
                    let mutated = ProfileGenerator.mutated(bytes, &random)
                    #expect(Self.disagreement(mutated) == nil, "round \(round): \(String(decoding: mutated, as: UTF8.self))")
                }
            }
            #expect(escapeFree > 50)
        }

        /// The scanner's whitespace shortcuts (a newline and its indentation, a colon and one
        /// space) against the tree: every run of whitespace between tokens is replaced by
        /// another of any shape (spaces, tabs, carriage returns, newlines, runs longer than a
        /// word, none at all), sometimes with a control byte that is not whitespace in it.
        @Test func whitespaceOfEveryShapeDecodesAsTheTreeDoes() {
            var random = SplitMix64(seed: 14_0032)
            let pieces: [[UInt8]] = [[], [0x20], [0x0A], [0x0A, 0x20, 0x20], [0x0A] + Array(repeating: 0x20, count: 7),
                                     [0x0A] + Array(repeating: 0x20, count: 8), [0x0A] + Array(repeating: 0x20, count: 19),
                                     [0x0D, 0x0A, 0x20], [0x09], [0x20, 0x09, 0x20], [0x0A, 0x0A], Array(repeating: 0x20, count: 9)]
            let strangers: [UInt8] = [0x0B, 0x0C, 0x00, 0x1F, 0xA0]
            var escapeFree = 0
            for round in 0..<300 {
                let written = JSONWriter(style: round % 2 == 0 ? .pretty : .compact).bytes(ProfileGenerator.richProfile(&random).json)
                let damaged = round % 5 == 4
                var bytes: [UInt8] = []
                var inString = false, escaped = false
                func gap() {
                    bytes += pieces[ProfileGenerator.draw(&random, pieces.count)]
                    if damaged, ProfileGenerator.draw(&random, 200) == 0 { bytes.append(strangers[ProfileGenerator.draw(&random, strangers.count)]) }
                }
                for byte in written {
                    if inString {
                        bytes.append(byte)
                        if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false; gap() }
                        continue
                    }
                    switch byte {
                    case 0x20, 0x0A, 0x0D, 0x09: continue  // replaced by the gaps
                    case 0x22: inString = true; bytes.append(byte)
                    case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
                        bytes.append(byte)
                        gap()
                    default: bytes.append(byte)  // inside a number or a literal
                    }
                }
                #expect(Self.disagreement(bytes) == nil, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
                // Without escapes, every shape of whitespace is the byte decoder's own.
                if !damaged, !bytes.contains(0x5C) {
                    #expect(ProfileDecoder.decode(bytes) != nil, "round \(round) fell back")
                    escapeFree += 1
                }
            }
            #expect(escapeFree > 15)
        }

        /// Shapes the tree path accepts or refuses in its own way: duplicates, wrong types,
        /// a newer schema, repeated transaction ids, attributes of the wrong kind.
        @Test(arguments: [
            #"{"customer_user_id": "u"}"#, #"  {"customer_user_id": "u"}  "#, "\u{FEFF}{\"customer_user_id\": \"u\"}",
            #"{"customer_user_id": ""}"#, #"{"customer_user_id": "u", "customer_user_id": "v"}"#, #"{"customer_user_id": "u", "x": 1, "x": 2}"#,
            #"{"customer_user_id": "u", "schema_version": 2}"#, #"{"customer_user_id": "u", "schema_version": 1.0}"#,
            #"{"customer_user_id": "u", "schema_version": 0}"#, #"{"customer_user_id": "u", "transactions": null, "renewal_info": null}"#,
            #"{"customer_user_id": "u", "transactions": {}}"#, #"{"customer_user_id": "u", "transactions": [1]}"#,
            #"{"customer_user_id": "u", "custom_attributes": {"a": [1]}}"#, #"{"customer_user_id": "u", "custom_attributes": {"a": 1, "a": 2}}"#,
            #"{"customer_user_id": "u", "renewal_info": {"o": {"will_renew": 1}}}"#, #"{"customer_user_id": "u", "renewal_info": {"o": {}, "o": {}}}"#,
            #"{"customer_user_id": "u", "renewal_info": {"e\u0301": {}, "\u00e9": {}}}"#, "{\"customer_user_id\": \"u\", \"renewal_info\": {\"e\u{301}\": {}, \"\u{E9}\": {\"will_renew\": true}}}",
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "store": "app_store", "type": "consumable_purchase", "purchased_at": "2026-01-01"}, {"transaction_id": "t", "product_id": "p", "store": "app_store", "type": "consumable_purchase", "purchased_at": "2026-01-01"}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "store": "a b", "type": "consumable_purchase", "purchased_at": "2026-01-01"}, {"transaction_id": "b t", "product_id": "p", "store": "a", "type": "consumable_purchase", "purchased_at": "2026-01-01"}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-01", "restored_revocations": null}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-01", "restored_revocations": [{"revoked_at": "x"}]}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "type": "manual_grant", "purchased_at": "2026-01-01"}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "type": "x", "purchased_at": "2026-01-01", "price": 1e999}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "store": "s", "type": "x", "purchased_at": "2026-02-30"}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "store": "s", "type": "x", "purchased_at": "2026-01-01", "vendor": 3}]}"#,
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "store": "s", "type": "x", "purchased_at": "2026-01-01", "x": [[[[]]]], "y": {"a": {"b": {}}}}]}"#,
            #"{"customer_user_id": "u", "transactions": [],}"#, #"{"customer_user_id": "u"} x"#, #"[]"#, "", #"{"customer_user_id": "u\u0000"}"#,
        ])
        func edgeCasesAgreeWithTheTree(_ text: String) {
            #expect(Self.disagreement(Array(text.utf8)) == nil)
        }

        @Test func slotsFollowTheCodingKeys() {
            typealias S = ProfileDecoder.TransactionSlot
            let keys = Transaction.fieldTable.keys
            #expect(keys[S.transactionID] == "transaction_id" && keys[S.vendor] == "vendor" && keys[S.isUpgraded] == "is_upgraded")
            #expect(keys[S.price] == "price" && keys[S.grantedAt] == "granted_at" && keys[S.environment] == "environment")
            #expect(RenewalInfo.fieldTable.keys[ProfileDecoder.RenewalSlot.isInBillingRetry] == "is_in_billing_retry")
            #expect(RenewalInfo.fieldTable.keys[ProfileDecoder.RenewalSlot.isPaused] == "is_paused"
                && RenewalInfo.fieldTable.keys[ProfileDecoder.RenewalSlot.pausedAt] == "paused_at"
                && RenewalInfo.fieldTable.keys[ProfileDecoder.RenewalSlot.resumesAt] == "resumes_at")
            #expect(ProfileDecoder.fieldTable.keys == ["schema_version", "profile_id", "customer_user_id", "created_at", "custom_attributes", "transactions", "renewal_info"])
        }

        @Test func utf8ValidationMatchesSwift() {
            var random = SplitMix64(seed: 8)
            let bytes: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xA0, 0xED, 0x9F, 0xA0, 0xEF, 0xF0, 0x90, 0x8F, 0xF4, 0xF5, 0xFF]
            for _ in 0..<50_000 {
                let sample = (0..<ProfileGenerator.draw(&random, 7)).map { _ in bytes[ProfileGenerator.draw(&random, bytes.count)] }
                let swift = String(validating: sample, as: UTF8.self) != nil
                #expect(sample.withUnsafeBufferPointer(ByteCursor.isValidUTF8) == swift, "\(sample)")
            }
        }
    }
}
