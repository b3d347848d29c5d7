import COpenSSL
import Foundation

/// A certificate authority minted in the test through libcrypto: EC keys, X.509 v3
/// certificates with key identifiers and critical basicConstraints (so `X509_STRICT`
/// stays on), and ES256 JWS signed with the leaf. Apple's own test certificates lack the
/// identifiers; this is how every forgery in the tests is made.
package final class TestKey {
    package let handle: OpaquePointer

    package init(curve: String = "P-256") { handle = entitlement_ec_generate(curve)! }
    deinit { EVP_PKEY_free(handle) }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), as App Store Connect's `.p8` files hold it.
    package var pkcs8PEM: String {
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        PEM_write_bio_PrivateKey(bio, handle, nil, nil, 0, nil, nil)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(Int(max(0, count))), as: UTF8.self)
    }
}

/// One minted certificate and its key.
package final class TestCertificate {
    package let handle: OpaquePointer
    package let key: TestKey

    /// Apple's OIDs: the leaf's receipt-signing one and the intermediate's WWDR one.
    package static let leafOID = "1.2.840.113635.100.6.11.1"
    package static let intermediateOID = "1.2.840.113635.100.6.2.1"

    /// A certificate for `name`, signed by `issuer` (self-signed when nil) with SHA-256, or
    /// SHA-384 when `sha384`. Valid from `notBefore` to `notAfter` (Unix seconds).
    package init(name: String, key: TestKey, issuer: TestCertificate?, ca: Bool, oids: [String] = [], serial: Int = 1,
         notBefore: Int64 = 1_600_000_000, notAfter: Int64 = 2_000_000_000, sha384: Bool = false) {
        self.key = key
        let cert = X509_new()!
        X509_set_version(cert, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(cert), serial)
        ASN1_TIME_set(X509_getm_notBefore(cert), time_t(notBefore))
        ASN1_TIME_set(X509_getm_notAfter(cert), time_t(notAfter))
        X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", 0x1001, name, -1, -1, 0)
        X509_set_issuer_name(cert, X509_get_subject_name(issuer?.handle ?? cert))
        X509_set_pubkey(cert, key.handle)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.handle ?? cert, cert, nil, nil, 0)
        var extensions: [(String, String)] = [
            ("basicConstraints", ca ? "critical,CA:TRUE" : "critical,CA:FALSE"),
            ("keyUsage", ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature"),
            ("subjectKeyIdentifier", "hash"),
            ("authorityKeyIdentifier", "keyid:always"),
        ]
        extensions += oids.map { ($0, "ASN1:NULL") }
        for (extensionName, value) in extensions {
            let made = X509V3_EXT_nconf(nil, &context, extensionName, value)!
            X509_add_ext(cert, made, -1)
            X509_EXTENSION_free(made)
        }
        X509_sign(cert, (issuer?.key ?? key).handle, sha384 ? EVP_sha384() : EVP_sha256())
        handle = cert
    }

    deinit { X509_free(handle) }

    /// The certificate, DER.
    package var der: [UInt8] {
        let length = i2d_X509(handle, nil)
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(handle, &cursor)
        }
        return bytes
    }

    /// The DER as `x5c` writes it: standard base64.
    package var x5c: String { Data(der).base64EncodedString() }
}

/// Root (P-384), intermediate (P-384) and leaf (P-256, signed with SHA-384): the shape of Apple's real chain.
package struct TestChain {
    package let root: TestCertificate
    package let intermediate: TestCertificate
    package let leaf: TestCertificate

    package init(leafOIDs: [String] = [TestCertificate.leafOID], intermediateOIDs: [String] = [TestCertificate.intermediateOID], notAfter: Int64 = 2_000_000_000) {
        root = TestCertificate(name: "Test Root", key: TestKey(curve: "P-384"), issuer: nil, ca: true, sha384: true)
        intermediate = TestCertificate(name: "Test Intermediate", key: TestKey(curve: "P-384"), issuer: root, ca: true, oids: intermediateOIDs, serial: 2, sha384: true)
        leaf = TestCertificate(name: "Test Leaf", key: TestKey(), issuer: intermediate, ca: false, oids: leafOIDs, serial: 3, notAfter: notAfter, sha384: true)
    }

    /// A JWS of `payload` signed by the leaf; `header` replaces the default `{"alg":"ES256","x5c":[…]}`.
    package func sign(_ payload: String, header: String? = nil, x5c: [String]? = nil) -> String {
        let chain = (x5c ?? [leaf.x5c, intermediate.x5c, root.x5c]).map { "\"\($0)\"" }.joined(separator: ",")
        let input = JWSText.encode(header ?? #"{"alg":"ES256","x5c":[\#(chain)]}"#) + "." + JWSText.encode(payload)
        return input + "." + JWSText.encode(bytes: TestSigner.signES256(Array(input.utf8), key: leaf.key))
    }
}

/// base64url helpers for building and changing JWS in tests.
package enum JWSText {
    package static func encode(_ text: String) -> String { encode(bytes: Array(text.utf8)) }

    package static func encode(bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package static func segments(_ jws: String) -> [String] { jws.components(separatedBy: ".") }

    package static func decode(_ segment: String) -> [UInt8] {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Array(Data(base64Encoded: text)!)
    }
}

/// ES256 signing with the raw R‖S output JWS uses.
package enum TestSigner {
    package static func signES256(_ message: [UInt8], key: TestKey) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.handle)
        var length = 0
        EVP_DigestSign(context, nil, &length, message, message.count)
        var der = [UInt8](repeating: 0, count: length)
        EVP_DigestSign(context, &der, &length, message, message.count)
        let sig = der.withUnsafeBufferPointer { buffer -> OpaquePointer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)!
        }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(sig, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        out.withUnsafeMutableBufferPointer { buffer in
            _ = BN_bn2binpad(r, buffer.baseAddress, 32)
            _ = BN_bn2binpad(s, buffer.baseAddress! + 32, 32)
        }
        return out
    }
}
