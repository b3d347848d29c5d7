import COpenSSL
import Glibc

/// One X.509 certificate parsed by libcrypto; frees it when the last reference goes.
///
/// `@unchecked Sendable`: after parsing nothing mutates it, and libcrypto's reads of a
/// certificate (and of its reference-counted key) are safe from several threads.
final class Certificate: @unchecked Sendable {
    /// The `X509 *`.
    let handle: OpaquePointer
    /// The DER bytes it was parsed from.
    let der: [UInt8]

    /// Parses DER; nil when the bytes are not exactly one certificate.
    init?(der: [UInt8]) {
        guard !der.isEmpty, der.count < Int(Int32.max) else { return nil }
        var parsed: OpaquePointer?
        let consumed: Int = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            parsed = d2i_X509(nil, &cursor, buffer.count)
            guard let cursor, let base = buffer.baseAddress else { return 0 }
            return cursor - base
        }
        guard let parsed else { return nil }
        guard consumed == der.count else {
            X509_free(parsed)
            return nil
        }
        handle = parsed
        self.der = der
    }

    /// Takes ownership of a parsed `X509 *`; nil (and freed) when it cannot be encoded as DER.
    init?(owning parsed: OpaquePointer) {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(parsed, &out)
        guard length > 0, let out else {
            X509_free(parsed)
            return nil
        }
        der = Array(UnsafeBufferPointer(start: out, count: Int(length)))
        CRYPTO_free(out, #file, #line)
        handle = parsed
    }

    deinit { X509_free(handle) }

    /// True when the certificate has an extension with this dotted OID.
    func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(handle, object, -1) >= 0
    }

    /// `notBefore` and `notAfter` in Unix seconds, or nil when libcrypto cannot read them.
    var validity: (notBefore: Int64, notAfter: Int64)? {
        guard let start = Self.seconds(X509_get0_notBefore(handle)), let end = Self.seconds(X509_get0_notAfter(handle)) else { return nil }
        return (start, end)
    }

    /// The package key (owned by the certificate).
    var publicKey: OpaquePointer? { X509_get0_pubkey(handle) }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Int64(timegm(&parts))
    }
}
