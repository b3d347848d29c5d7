import COpenSSL

/// A certificate minted through libcrypto with its own EC key: CA certificates carry
/// critical basicConstraints and key identifiers, so the chain passes X509_STRICT.
final class MintedCertificate {
    let handle: OpaquePointer
    let key: OpaquePointer

    init(name: String, curve: String, issuer: MintedCertificate?, oid: String?, serial: Int) {
        key = entitlement_ec_generate(curve)!
        let cert = X509_new()!
        X509_set_version(cert, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(cert), serial)
        ASN1_TIME_set(X509_getm_notBefore(cert), 1_700_000_000)
        ASN1_TIME_set(X509_getm_notAfter(cert), 1_900_000_000)
        X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", MBSTRING_ASC, name, -1, -1, 0)
        X509_set_issuer_name(cert, X509_get_subject_name(issuer?.handle ?? cert))
        X509_set_pubkey(cert, key)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.handle ?? cert, cert, nil, nil, 0)
        let ca = oid != "1.2.840.113635.100.6.11.1"
        var extensions = [("basicConstraints", ca ? "critical,CA:TRUE" : "critical,CA:FALSE"),
                          ("keyUsage", ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature"),
                          ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always")]
        if let oid { extensions.append((oid, "ASN1:NULL")) }
        for (extensionName, value) in extensions {
            let made = X509V3_EXT_nconf(nil, &context, extensionName, value)!
            X509_add_ext(cert, made, -1)
            X509_EXTENSION_free(made)
        }
        X509_sign(cert, issuer?.key ?? key, EVP_sha384())
        handle = cert
    }

    var der: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(i2d_X509(handle, nil)))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(handle, &cursor)
        }
        return bytes
    }

    var base64: String { Base64.standard(der) }

    /// ES256 of `message` as JWS writes it: R‖S, 32 bytes each.
    func signES256(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key)
        EVP_DigestSign(context, nil, &length, message, message.count)
        var der = [UInt8](repeating: 0, count: length)
        EVP_DigestSign(context, &der, &length, message, message.count)
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, length)!
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        raw.withUnsafeMutableBufferPointer { buffer in
            _ = BN_bn2binpad(r, buffer.baseAddress, 32)
            _ = BN_bn2binpad(s, buffer.baseAddress! + 32, 32)
        }
        return raw
    }
}

/// base64 encoding, standard (for `x5c`) and url without padding (for JWS segments).
enum Base64 {
    static func standard(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8), pad: true) }
    static func url(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8), pad: false) }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let group = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0..<4 {
                if position <= chunk.count { out.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)]) } else if pad { out.append(UInt8(ascii: "=")) }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
