import Foundation
import Testing
@testable import EntitlementTrust
import EntitlementTestSupport

/// A run verifies each certificate chain once: later JWS with the same header text (Apple signs
/// every JWS of a period with one chain) are matched by the header's base64url bytes, and only
/// their date and signature are checked (`SigningHeaders`). What the cache may never do is
/// let a JWS through that the full checks refuse.
@Suite(.tags(.unit))
struct SigningHeaderCacheTests {
    static let payload = ForgeryTests.payload
    let chain = TestChain()

    func verifier(_ chain: TestChain? = nil, counter: SignatureCounter) throws -> AppStoreSignedDataVerifier {
        try AppStoreSignedDataVerifier(trustRoots: [(chain ?? self.chain).root.der], bundleID: "com.example", counter: counter)
    }

    @Test func oneChainIsBuiltOnceAndEverySignatureCheckedOnce() throws {
        let counter = SignatureCounter()
        let verifier = try verifier(counter: counter)
        for index in 0..<20 {
            let payload = Self.payload.replacingOccurrences(of: "\"1\"", with: "\"\(index)\"")
            #expect(try verifier.verify(chain.sign(payload)) == Array(payload.utf8))
        }
        #expect(counter.chainChecks == 1)
        #expect(counter.signatureChecks == 20)
    }

    @Test func aKnownHeaderStillNeedsAMatchingSignature() throws {
        let counter = SignatureCounter()
        let verifier = try verifier(counter: counter)
        let genuine = chain.sign(Self.payload)
        _ = try verifier.verify(genuine)
        let parts = JWSText.segments(genuine)
        let changed = parts[0] + "." + JWSText.encode(Self.payload.replacingOccurrences(of: "\"1\"", with: "\"2\"")) + "." + parts[2]
        #expect(throws: SignedDataError.signatureMismatch) { try verifier.verify(changed) }
        var signature = JWSText.decode(parts[2])
        signature.replaceSubrange(0..<32, with: [UInt8](repeating: 0, count: 32))
        #expect(throws: SignedDataError.malformedSignature("R or S is 0 or not below the curve order")) {
            try verifier.verify(parts[0] + "." + parts[1] + "." + JWSText.encode(bytes: signature))
        }
        // Signed by another key under the same header text: the cached leaf's key refuses it.
        let other = TestChain()
        let foreign = JWSText.segments(other.sign(Self.payload))
        #expect(throws: SignedDataError.signatureMismatch) { try verifier.verify(parts[0] + "." + foreign[1] + "." + foreign[2]) }
        #expect(counter.chainChecks == 1)
    }

    @Test func aKnownHeaderIsStillCheckedAtEachPayloadsDate() throws {
        let short = TestChain(notAfter: 1_761_962_975)
        let verifier = try verifier(short, counter: SignatureCounter())
        _ = try verifier.verify(short.sign(Self.payload))
        let later = Self.payload.replacingOccurrences(of: "1761962975000", with: "1761962976000")
        #expect(throws: SignedDataError.notValidAt(1_761_962_976)) { try verifier.verify(short.sign(later)) }
        let undated = Self.payload.replacingOccurrences(of: #","signedDate":1761962975000"#, with: "")
        #expect(throws: SignedDataError.missingSignedDate) { try verifier.verify(short.sign(undated)) }
    }

    @Test func aRefusedChainIsNotRemembered() throws {
        let counter = SignatureCounter()
        let verifier = try verifier(counter: counter)
        let stranger = TestChain()
        for _ in 0..<2 {
            #expect(throws: SignedDataError.self) { try verifier.verify(stranger.sign(Self.payload)) }
        }
        #expect(counter.chainChecks == 2)
        #expect(counter.signatureChecks == 0)
    }
}
