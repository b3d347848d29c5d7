import Foundation
import Testing
import EntitlementTestSupport
@testable import EntitlementTrust

/// Every forgery docs/security.md lists, against a chain minted in the test, with strict X.509 checks on.
@Suite(.tags(.unit))
struct ForgeryTests {
    static let payload = #"{"bundleId":"com.example","environment":"Production","signedDate":1761962975000,"transactionId":"1"}"#
    let chain = TestChain()

    func verifier(_ chain: TestChain? = nil, bundleID: String? = "com.example") throws -> AppStoreSignedDataVerifier {
        try AppStoreSignedDataVerifier(trustRoots: [(chain ?? self.chain).root.der], bundleID: bundleID)
    }

    /// The JWS with its signature segment replaced.
    func withSignature(_ jws: String, _ signature: [UInt8]) -> String {
        let parts = JWSText.segments(jws)
        return parts[0] + "." + parts[1] + "." + JWSText.encode(bytes: signature)
    }

    @Test func mintedJWSVerifiesStrictly() throws {
        let payload = try verifier().verify(chain.sign(Self.payload))
        #expect(payload == Array(Self.payload.utf8))
    }

    @Test func changedPayloadByteIsRefused() throws {
        let parts = JWSText.segments(chain.sign(Self.payload))
        let forged = parts[0] + "." + JWSText.encode(Self.payload.replacingOccurrences(of: "\"1\"", with: "\"2\"")) + "." + parts[2]
        #expect(throws: SignedDataError.signatureMismatch) { try verifier().verify(forged) }
    }

    @Test func swappedLeafIsRefused() throws {
        let other = TestCertificate(name: "Other Leaf", key: TestKey(), issuer: chain.intermediate, ca: false, oids: [TestCertificate.leafOID], serial: 9)
        let forged = chain.sign(Self.payload, x5c: [other.x5c, chain.intermediate.x5c, chain.root.x5c])
        #expect(throws: SignedDataError.signatureMismatch) { try verifier().verify(forged) }
    }

    @Test func selfSignedChainIsRefused() throws {
        let attacker = TestChain()
        #expect(throws: SignedDataError.untrustedChain("unable to get local issuer certificate")) { try verifier().verify(attacker.sign(Self.payload)) }
    }

    @Test func leafSignedDirectlyByTheRootIsRefused() throws {
        let shortcut = TestCertificate(name: "Shortcut", key: TestKey(), issuer: chain.root, ca: false, oids: [TestCertificate.leafOID], serial: 7)
        let forged = TestChain.signed(Self.payload, leaf: shortcut, x5c: [shortcut.x5c, chain.intermediate.x5c, chain.root.x5c])
        #expect(throws: SignedDataError.self) { try verifier().verify(forged) }
    }

    @Test(arguments: [#"{"alg":"none"}"#, #"{"alg":"HS256"}"#, #"{"alg":"RS256","x5c":[]}"#, #"{"x5c":[]}"#])
    func otherAlgorithmsAreRefused(_ header: String) throws {
        let forged = chain.sign(Self.payload, header: header)
        let alg = try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any]
        #expect(throws: SignedDataError.algorithm(alg?["alg"] as? String)) { try verifier().verify(forged) }
    }

    @Test func unsignedAlgNoneWithEmptySignatureIsRefused() throws {
        let forged = JWSText.encode(#"{"alg":"none"}"#) + "." + JWSText.encode(Self.payload) + "."
        #expect(throws: SignedDataError.algorithm("none")) { try verifier().verify(forged) }
    }

    @Test(arguments: [(true, false), (false, true), (true, true)])
    func zeroSignatureValuesAreRefused(_ zeroR: Bool, _ zeroS: Bool) throws {
        var signature = JWSText.decode(JWSText.segments(chain.sign(Self.payload))[2])
        if zeroR { signature.replaceSubrange(0..<32, with: [UInt8](repeating: 0, count: 32)) }
        if zeroS { signature.replaceSubrange(32..<64, with: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: SignedDataError.malformedSignature("R or S is 0 or not below the curve order")) {
            try verifier().verify(withSignature(chain.sign(Self.payload), signature))
        }
    }

    @Test(arguments: [0, 32])
    func signatureValuesEqualToTheOrderAreRefused(_ offset: Int) throws {
        var signature = JWSText.decode(JWSText.segments(chain.sign(Self.payload))[2])
        signature.replaceSubrange(offset..<offset + 32, with: ES256.order)
        #expect(throws: SignedDataError.malformedSignature("R or S is 0 or not below the curve order")) {
            try verifier().verify(withSignature(chain.sign(Self.payload), signature))
        }
    }

    @Test func rangeCheckBoundaries() {
        var belowOrder = ES256.order
        belowOrder[31] -= 1
        #expect(ES256.inRange(belowOrder))
        #expect(ES256.inRange([UInt8](repeating: 0, count: 31) + [1]))
        #expect(!ES256.inRange([UInt8](repeating: 0xFF, count: 32)))
    }

    @Test(arguments: [63, 0, 65])
    func wrongSignatureLengthIsRefused(_ length: Int) throws {
        let jws = chain.sign(Self.payload)
        var signature = JWSText.decode(JWSText.segments(jws)[2])
        signature = length <= 64 ? Array(signature.prefix(length)) : signature + [0]
        #expect(throws: SignedDataError.malformedSignature("\(length) bytes, not the 64 of R‖S")) { try verifier().verify(withSignature(jws, signature)) }
    }

    @Test func extraSegmentIsRefused() throws {
        #expect(throws: SignedDataError.segmentCount(4)) { try verifier().verify(chain.sign(Self.payload) + ".AAAA") }
        #expect(throws: SignedDataError.segmentCount(2)) { try verifier().verify(JWSText.encode("{}") + "." + JWSText.encode("{}")) }
    }

    @Test func paddedSegmentsAreAccepted() throws {
        // A payload whose base64url needs padding, signed as padded text: docs/import.md section 2.1.
        let payload = #"{"bundleId":"com.example","environment":"Production","signedDate":1761962975000}"#
        let chainList = [chain.leaf.x5c, chain.intermediate.x5c, chain.root.x5c].map { "\"\($0)\"" }.joined(separator: ",")
        let header = Data(#"{"alg":"ES256","x5c":[\#(chainList)]}"#.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let body = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(body.hasSuffix("=") || header.hasSuffix("="))
        let input = header + "." + body
        let jws = input + "." + JWSText.encode(bytes: TestSigner.signES256(Array(input.utf8), key: chain.leaf.key))
        #expect(try verifier().verify(jws) == Array(payload.utf8))
    }

    @Test func missingOIDsAreRefused() throws {
        let noLeafOID = TestChain(leafOIDs: [])
        #expect(throws: SignedDataError.leafOID) { try verifier(noLeafOID).verify(noLeafOID.sign(Self.payload)) }
        let noIntermediateOID = TestChain(intermediateOIDs: ["1.2.840.113635.100.6.2.2"])
        #expect(throws: SignedDataError.intermediateOID) { try verifier(noIntermediateOID).verify(noIntermediateOID.sign(Self.payload)) }
    }

    @Test func expiredAtSignedDateIsRefusedAndBoundariesHold() throws {
        let short = TestChain(notAfter: 1_761_962_975)
        _ = try verifier(short).verify(short.sign(Self.payload))
        let later = Self.payload.replacingOccurrences(of: "1761962975000", with: "1761962976000")
        #expect(throws: SignedDataError.notValidAt(1_761_962_976)) { try verifier(short).verify(short.sign(later)) }
    }

    @Test func x5cOfTwoIsRefused() throws {
        let forged = chain.sign(Self.payload, x5c: [chain.leaf.x5c, chain.intermediate.x5c])
        #expect(throws: SignedDataError.certificateCount(2)) { try verifier().verify(forged) }
    }

    @Test func unreadableCertificateIsNamed() throws {
        let forged = chain.sign(Self.payload, x5c: [chain.leaf.x5c, "AAAA", chain.root.x5c])
        #expect(throws: SignedDataError.unreadableCertificate(index: 1)) { try verifier().verify(forged) }
    }

    @Test func xcodeDataNeedsTheExplicitChoice() throws {
        let xcode = #"{"bundleId":"com.example","environment":"Xcode","signedDate":1761962975000}"#
        let jws = TestChain().sign(xcode)
        #expect(throws: SignedDataError.xcodeNotAllowed("Xcode")) { try verifier().verify(jws) }
        let allowing = try AppStoreSignedDataVerifier(bundleID: "com.example", allowXcode: true)
        #expect(try allowing.verifyDecoded(jws).signatureChecked == false)
    }

    @Test func productionNotificationNeedsTheAppAppleID() throws {
        let notification = #"{"notificationType":"TEST","signedDate":1761962975000,"data":{"bundleId":"com.example","environment":"Production","appAppleId":1}}"#
        let verifier = try AppStoreSignedDataVerifier(trustRoots: [chain.root.der], bundleID: "com.example", appAppleID: 2)
        #expect(throws: SignedDataError.appAppleID(found: 1, expected: 2)) { try verifier.verify(chain.sign(notification)) }
    }

    @Test func chainResultsAreCachedAcrossDates() throws {
        let verifier = try verifier()
        for second in 0..<50 {
            let payload = Self.payload.replacingOccurrences(of: "1761962975000", with: "\(1_761_962_975 + second)000")
            _ = try verifier.verify(chain.sign(payload))
        }
    }
}

extension TestChain {
    /// A JWS signed by `leaf`, whatever the chain listed.
    static func signed(_ payload: String, leaf: TestCertificate, x5c: [String]) -> String {
        let list = x5c.map { "\"\($0)\"" }.joined(separator: ",")
        let input = JWSText.encode(#"{"alg":"ES256","x5c":[\#(list)]}"#) + "." + JWSText.encode(payload)
        return input + "." + JWSText.encode(bytes: TestSigner.signES256(Array(input.utf8), key: leaf.key))
    }
}
