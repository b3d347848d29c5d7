import Foundation
import Testing
import EntitlementTestSupport
@testable import EntitlementTrust

/// Apple's MIT test data (Fixtures/trust/appstore, from app-store-server-library-swift and
/// -java): signed data against `testCA.der` at its `signedDate`, and ChainVerifierTest's chains.
@Suite(.tags(.unit))
struct AppleVectorTests {
    static let directory = repositoryRoot + "/Fixtures/trust/appstore"

    static func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: directory + "/" + name)!) }
    static func text(_ name: String) -> String { String(decoding: bytes("signed/" + name), as: UTF8.self) }

    /// Apple's test certificates lack key identifiers, so strict mode is off for them (as Apple's Python tests do).
    static func verifier(bundleID: String? = "com.example", appAppleID: Int64? = 1234, fallbackDate: Int64? = 1_681_314_324) throws -> AppStoreSignedDataVerifier {
        try AppStoreSignedDataVerifier(trustRoots: [bytes("testCA.der")], bundleID: bundleID, appAppleID: appAppleID, strict: false, fallbackDate: fallbackDate)
    }

    @Test(arguments: ["testNotification", "transactionInfo", "renewalInfo"])
    func signedDataVerifiesAgainstTestRootAtSignedDate(_ name: String) throws {
        let verified = try Self.verifier().verifyDecoded(Self.text(name))
        #expect(verified.signatureChecked)
        #expect(verified.signedDate != nil)
        #expect(verified.environment == "Sandbox")
    }

    @Test func signedDataFailsWithoutTheTestRoot() throws {
        let verifier = try AppStoreSignedDataVerifier(bundleID: "com.example")
        #expect(throws: SignedDataError.untrustedChain("unable to get local issuer certificate")) { try verifier.verify(Self.text("transactionInfo")) }
    }

    @Test func wrongBundleIDIsRefused() throws {
        #expect(throws: SignedDataError.bundleID(found: "com.example.wrong", expected: "com.example")) { try Self.verifier().verify(Self.text("wrongBundleId")) }
        // Without a configured bundle id the same data verifies: the signature is Apple's test CA's.
        _ = try Self.verifier(bundleID: nil).verify(Self.text("wrongBundleId"))
    }

    @Test func missingX5CIsRefused() throws {
        #expect(throws: SignedDataError.missingCertificateChain) { try Self.verifier().verify(Self.text("missingX5CHeaderClaim")) }
    }

    @Test func legacyTransactionIsRefused() throws {
        #expect(throws: SignedDataError.segmentCount(1)) { try Self.verifier().verify(Self.text("legacyTransaction")) }
    }

    @Test func appAppleIDIsCheckedOnlyForProductionNotifications() throws {
        // testNotification is Sandbox: app Apple id 9999 configured does not matter.
        _ = try Self.verifier(appAppleID: 9999).verify(Self.text("testNotification"))
    }

    @Test func withoutSignedDateOrFallbackDateIsRefused() throws {
        #expect(throws: SignedDataError.missingSignedDate) { try Self.verifier(bundleID: nil, fallbackDate: nil).verify(Self.text("wrongBundleId")) }
    }
}

/// The constants of Apple's `ChainVerifierTest` (java), checked through the chain verifier alone.
@Suite(.tags(.unit))
struct ChainVerifierVectorTests {
    static func der(_ name: String) -> [UInt8] { AppleVectorTests.bytes("chain/\(name)_BASE64_ENCODED.der") }
    static let effectiveDate: Int64 = 1_761_962_975

    static func chains(root: String = "ROOT_CA") -> ChainVerifier {
        ChainVerifier(roots: [Certificate(der: der(root))!], strict: false)
    }

    @Test func validChainVerifies() throws {
        _ = try Self.chains().verify(leaf: Self.der("LEAF_CERT"), intermediate: Self.der("INTERMEDIATE_CA"), at: Self.effectiveDate)
    }

    @Test func intermediateWithWrongOIDIsRefused() {
        #expect(throws: SignedDataError.intermediateOID) {
            try Self.chains().verify(leaf: Self.der("LEAF_CERT_FOR_INTERMEDIATE_CA_INVALID_OID"), intermediate: Self.der("INTERMEDIATE_CA_INVALID_OID"), at: Self.effectiveDate)
        }
    }

    @Test func leafWithWrongOIDIsRefused() {
        #expect(throws: SignedDataError.leafOID) {
            try Self.chains().verify(leaf: Self.der("LEAF_CERT_INVALID_OID"), intermediate: Self.der("INTERMEDIATE_CA"), at: Self.effectiveDate)
        }
    }

    @Test func chainHasExpiredIn2042() {
        #expect(throws: SignedDataError.notValidAt(2_280_946_846)) {
            try Self.chains().verify(leaf: Self.der("LEAF_CERT"), intermediate: Self.der("INTERMEDIATE_CA"), at: 2_280_946_846)
        }
    }

    @Test func testChainAgainstRealRootFails() {
        #expect(throws: SignedDataError.untrustedChain("unable to get local issuer certificate")) {
            try Self.chains(root: "REAL_APPLE_ROOT").verify(leaf: Self.der("LEAF_CERT"), intermediate: Self.der("INTERMEDIATE_CA"), at: Self.effectiveDate)
        }
    }

    @Test func realAppleChainParsesAndVerifiesStrictly() throws {
        for name in ["REAL_APPLE_ROOT", "REAL_APPLE_INTERMEDIATE", "REAL_APPLE_SIGNING_CERTIFICATE"] { #expect(Certificate(der: Self.der(name)) != nil) }
        let builtIn = ChainVerifier(roots: [Certificate(der: AppleRootCAG3.der)!], strict: true)
        _ = try builtIn.verify(leaf: Self.der("REAL_APPLE_SIGNING_CERTIFICATE"), intermediate: Self.der("REAL_APPLE_INTERMEDIATE"), at: Self.effectiveDate)
        #expect(throws: SignedDataError.notValidAt(2_280_946_846)) {
            try builtIn.verify(leaf: Self.der("REAL_APPLE_SIGNING_CERTIFICATE"), intermediate: Self.der("REAL_APPLE_INTERMEDIATE"), at: 2_280_946_846)
        }
    }

    @Test func builtInRootIsAppleRootCAG3ByFingerprint() {
        #expect(Digest.hex(Digest.sha256(AppleRootCAG3.der)) == AppleRootCAG3.sha256Fingerprint)
        #expect(AppleRootCAG3.der == Self.der("REAL_APPLE_ROOT"))
    }

    @Test func appleTestChainFailsStrictChecks() {
        let strict = ChainVerifier(roots: [Certificate(der: Self.der("ROOT_CA"))!], strict: true)
        #expect(throws: SignedDataError.self) { try strict.verify(leaf: Self.der("LEAF_CERT"), intermediate: Self.der("INTERMEDIATE_CA"), at: Self.effectiveDate) }
    }
}
