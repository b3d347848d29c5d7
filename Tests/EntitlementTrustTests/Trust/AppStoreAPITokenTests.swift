import Foundation
import Testing
import COpenSSL
import EntitlementTestSupport
@testable import EntitlementTrust

/// The App Store Server API's bearer JWT (`AppStoreAPIToken`): header and claims as Apple
/// documents them, signed ES256 with a PKCS#8 key, checked with the public half of the pair:
/// a key pair the test makes, and Apple's own test key (Fixtures/trust/appstore/keys).
@Suite(.tags(.unit))
struct AppStoreAPITokenTests {
    static let issuedAt: Int64 = 1_768_478_400

    static func decode(_ segment: String) -> [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(JWSText.decode(segment))) as! [String: Any]
    }

    static func expectToken(signedWith pem: String, verifiedBy key: OpaquePointer) throws {
        let signer = try ES256SigningKey(pem: Array(pem.utf8))
        let token = try #require(AppStoreAPIToken(key: signer, keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a",
                                                  bundleID: "com.example.app").token(issuedAt: issuedAt))
        let parts = JWSText.segments(token)
        #expect(parts.count == 3)
        #expect(!token.contains("="))
        let header = decode(parts[0])
        #expect(header.count == 3)
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "2X9R4HXF34")
        #expect(header["typ"] as? String == "JWT")
        let claims = decode(parts[1])
        #expect(claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect((claims["iat"] as? NSNumber)?.int64Value == issuedAt)
        let exp = try #require((claims["exp"] as? NSNumber)?.int64Value)
        #expect(exp > issuedAt && exp - issuedAt <= 3600)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == "com.example.app")
        let signature = JWSText.decode(parts[2])
        #expect(signature.count == 64)
        try ES256.verify(signature: signature, message: Array("\(parts[0]).\(parts[1])".utf8), key: key)
        // Another message does not verify: the check above is not vacuous.
        #expect(throws: SignedDataError.signatureMismatch) {
            try ES256.verify(signature: signature, message: Array("\(parts[0]).e30".utf8), key: key)
        }
    }

    @Test func aTokenOfAKeyPairTheTestMadeVerifiesWithItsPublicKey() throws {
        let pair = TestKey()
        try Self.expectToken(signedWith: pair.pkcs8PEM, verifiedBy: pair.handle)
    }

    @Test func aTokenOfApplesTestSigningKeyVerifies() throws {
        let pem = try String(contentsOfFile: repositoryRoot + "/Fixtures/trust/appstore/keys/testSigningKey.p8", encoding: .utf8)
        let key = try #require(pem.utf8CString.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count - 1))
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        })
        defer { EVP_PKEY_free(key) }
        try Self.expectToken(signedWith: pem, verifiedBy: key)
    }

    @Test func keysThatCannotSignES256AreRefusedByName() {
        #expect(throws: ES256SigningKey.Problem.unreadable) { try ES256SigningKey(pem: Array("not a key".utf8)) }
        let p384 = TestKey(curve: "P-384")
        #expect(throws: ES256SigningKey.Problem.notP256) { try ES256SigningKey(pem: Array(p384.pkcs8PEM.utf8)) }
    }

    @Test func claimsAreJSONEscaped() {
        #expect(AppStoreAPIToken.quoted("a\"b\\c\u{1}") == #""a\"b\\c\u0001""#)
    }
}
