import Foundation
import Testing
import EntitlementTestSupport
@testable import EntitlementTrust

/// Stripe's MIT test payload with the header derived for it (Fixtures/trust/stripe/derived-vector.txt).
@Suite(.tags(.unit))
struct StripeSignatureTests {
    static let payload = Array(FileManager.default.contents(atPath: repositoryRoot + "/Fixtures/trust/stripe/dummy-webhook-payload.json")!)
    static let signature = "07b1ede164afb7b5de91267ffa656f568c65d6e0783ce0ac55ee094643578eda"
    static let header = "t=12345,v1=\(signature)"
    static let secret = "whsec_test_secret"

    @Test func derivedVectorVerifies() {
        #expect(StripeSignature.verify(header: Self.header, payload: Self.payload, secrets: [Self.secret], now: 12_345) == .valid)
        #expect(StripeSignature.verify(header: Self.header, payload: Self.payload, secrets: [Self.secret], now: 12_345 + 300) == .valid)
    }

    @Test func oldTimestampIsRefused() {
        #expect(StripeSignature.verify(header: Self.header, payload: Self.payload, secrets: [Self.secret], now: 12_345 + 301) == .timestampTooOld(age: 301, tolerance: 300))
    }

    @Test func everyChangedPayloadByteIsRefused() {
        for index in stride(from: 0, to: Self.payload.count, by: max(1, Self.payload.count / 64)) {
            var changed = Self.payload
            changed[index] ^= 0x01
            #expect(StripeSignature.verify(header: Self.header, payload: changed, secrets: [Self.secret], now: 12_345) == .signatureMismatch)
        }
    }

    @Test func wrongSecretIsRefusedAndRotationAccepted() {
        #expect(StripeSignature.verify(header: Self.header, payload: Self.payload, secrets: ["whsec_other"], now: 12_345) == .signatureMismatch)
        #expect(StripeSignature.verify(header: Self.header, payload: Self.payload, secrets: ["whsec_other", Self.secret], now: 12_345) == .valid)
        #expect(StripeSignature.verify(header: Self.header, payload: Self.payload, secrets: [], now: 12_345) == .signatureMismatch)
    }

    @Test func headerVariants() {
        let check = { (header: String) in StripeSignature.verify(header: header, payload: Self.payload, secrets: [Self.secret], now: 12_345) }
        #expect(check("t=12345,v0=\(Self.signature)") == .missingV1Signature)
        #expect(check("t=12345,v1=bad_signature") == .signatureMismatch)
        #expect(check("\(Self.header),v1=bad_signature") == .valid)
        #expect(check("t=12345,v1=bad_signature,v1=\(Self.signature)") == .valid)
        #expect(check("v1=\(Self.signature)") == .missingTimestamp)
        #expect(check("t=abc,v1=\(Self.signature)") == .missingTimestamp)
        #expect(check("t=12345,t=12345,v1=\(Self.signature)") == .missingTimestamp)
        #expect(check("t=12345,v1=\(Self.signature.uppercased())") == .signatureMismatch)
        #expect(check("") == .missingTimestamp)
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals("Basic abc".utf8, Array("Basic abc".utf8)))
    }
}
