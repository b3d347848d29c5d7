import Foundation
import Testing
import EntitlementTestSupport
@testable import EntitlementTrust

/// Trust root files as people have them (Fixtures/trust/appstore/pem: Apple's own test root and
/// real root as PEM, and `openssl x509 -text`'s output), read by libcrypto (`TrustRootFile`):
/// PEM with LF or CRLF, text before the block, several blocks, DER; nothing else.
@Suite(.tags(.unit))
struct TrustRootFileTests {
    static func pem(_ name: String) -> [UInt8] { AppleVectorTests.bytes("pem/" + name) }
    static let testCA = AppleVectorTests.bytes("testCA.der")
    static let appleRoot = AppleVectorTests.bytes("chain/REAL_APPLE_ROOT_BASE64_ENCODED.der")

    static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
    }

    @Test(arguments: ["LF", "CRLF", "text before", "DER"])
    func everyFormOfAppleTestRootReadsAsThatRoot(_ form: String) throws {
        let bytes = switch form {
        case "LF": Self.pem("testCA.pem")
        case "CRLF": Self.crlf(Self.pem("testCA.pem"))
        case "text before": Self.pem("testCA.text.pem")
        default: Self.testCA
        }
        let found = try #require(TrustRootFile.certificates(bytes))
        #expect(found.map(\.der) == [Self.testCA])
    }

    @Test func aFileOfSeveralBlocksGivesEachAsARoot() throws {
        let bundle = Self.pem("testCA.text.pem") + Array("\n# Apple Root CA - G3\r\n".utf8) + Self.crlf(Self.pem("REAL_APPLE_ROOT.pem"))
        let found = try #require(TrustRootFile.certificates(bundle))
        #expect(found.map(\.der) == [Self.testCA, Self.appleRoot])
    }

    @Test(arguments: ["", "not a certificate\n", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "DER and a byte"])
    func aFileWithoutACertificateIsRefused(_ text: String) {
        let bytes = text == "DER and a byte" ? Self.testCA + [0] : Array(text.utf8)
        #expect(TrustRootFile.certificates(bytes) == nil)
    }

    @Test func aBrokenSecondBlockRefusesTheFile() {
        let bytes = Self.pem("testCA.pem") + Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)
        #expect(TrustRootFile.certificates(bytes) == nil)
    }

    /// Apple's signed test data verifies against its root given as PEM, in each form.
    @Test(arguments: ["testCA.pem", "testCA.text.pem"])
    func appleSignedDataVerifiesAgainstThePEMRoot(_ name: String) throws {
        for bytes in [Self.pem(name), Self.crlf(Self.pem(name))] {
            let verifier = try AppStoreSignedDataVerifier(trustRoots: [bytes], bundleID: "com.example", strict: false)
            #expect(try verifier.verifyDecoded(AppleVectorTests.text("testNotification")).signatureChecked)
        }
    }

    @Test func aRootFileWithoutACertificateNamesItsIndex() {
        #expect(throws: SignedDataError.unreadableTrustRoot(1)) {
            try AppStoreSignedDataVerifier(trustRoots: [Self.testCA, Array("hello\n".utf8)], strict: false)
        }
    }
}
