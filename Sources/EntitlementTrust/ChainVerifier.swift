import COpenSSL
import Synchronization

/// Leaf ← intermediate ← trusted root, as Apple's `ChainVerifier` checks it, with results
/// cached by the two certificates' fingerprints for the life of the verifier.
///
/// libcrypto builds and checks the path (signatures, CA constraints, key usage, and
/// `X509_V_FLAG_X509_STRICT` unless relaxed); time is checked apart, at the payload's
/// `signedDate`, against the window every certificate of the chain shares, so that one
/// cached chain answers JWS of any date without being checked again.
final class ChainVerifier: @unchecked Sendable {
    /// A chain that passed every check but time.
    struct Verified: Sendable {
        /// The leaf's key, made ready for ES256 (one per distinct leaf).
        let key: LeafKey
        let notBefore: Int64
        let notAfter: Int64

        var leaf: Certificate { key.certificate }

        /// Throws unless every certificate of the chain is valid at `date` (Unix seconds).
        func requireValid(at date: Int64) throws(SignedDataError) {
            guard notBefore <= date, date <= notAfter else { throw .notValidAt(date) }
        }
    }

    static let leafOID = "1.2.840.113635.100.6.11.1"
    static let intermediateOID = "1.2.840.113635.100.6.2.1"

    /// The `X509_STORE` of trusted roots; libcrypto locks it for concurrent readers.
    private let store: OpaquePointer
    private let roots: [Certificate]
    private let strict: Bool
    private let cache = Mutex<[[UInt8]: Verified]>([:])
    /// Counts the chains libcrypto builds (tests).
    let counter: SignatureCounter?


    init(roots: [Certificate], strict: Bool, counter: SignatureCounter? = nil) {
        store = X509_STORE_new()
        for root in roots { X509_STORE_add_cert(store, root.handle) }
        self.roots = roots
        self.strict = strict
        self.counter = counter
    }

    deinit { X509_STORE_free(store) }

    /// The leaf's P-256 key when `leaf` ← `intermediate` ← a root is valid at `date` (Unix seconds).
    func verify(leaf leafDER: [UInt8], intermediate intermediateDER: [UInt8], at date: Int64) throws(SignedDataError) -> OpaquePointer {
        let chain = try verified(leaf: leafDER, intermediate: intermediateDER)
        try chain.requireValid(at: date)
        guard let publicKey = chain.leaf.publicKey else { throw .leafKeyNotP256 }
        return publicKey
    }

    /// The chain `leaf` ← `intermediate` ← a root, checked in everything but time; cached.
    func verified(leaf leafDER: [UInt8], intermediate intermediateDER: [UInt8]) throws(SignedDataError) -> Verified {
        let key = Digest.sha256(leafDER) + Digest.sha256(intermediateDER)
        if let known = cache.withLock({ $0[key] }) { return known }
        let chain = try verifyUncached(leafDER, intermediateDER)
        cache.withLock { $0[key] = chain }
        return chain
    }

    private func verifyUncached(_ leafDER: [UInt8], _ intermediateDER: [UInt8]) throws(SignedDataError) -> Verified {
        counter?.countChain()
        guard let leaf = Certificate(der: leafDER) else { throw .unreadableCertificate(index: 0) }
        guard let intermediate = Certificate(der: intermediateDER) else { throw .unreadableCertificate(index: 1) }
        guard let context = X509_STORE_CTX_new() else { throw .untrustedChain("libcrypto is out of memory") }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else { throw .untrustedChain("libcrypto is out of memory") }
        defer { OPENSSL_sk_free(untrusted) }
        OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.handle))
        guard X509_STORE_CTX_init(context, store, leaf.handle, untrusted) == 1 else { throw .untrustedChain("libcrypto could not start") }
        let flags = UInt(X509_V_FLAG_NO_CHECK_TIME) | (strict ? UInt(X509_V_FLAG_X509_STRICT) : 0)
        X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), flags)
        let verified = X509_verify_cert(context)
        ERR_clear_error()
        guard verified == 1 else {
            let reason = X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))).map { String(cString: $0) } ?? "unknown reason"
            throw .untrustedChain(reason)
        }
        // Exactly leaf, the given intermediate, a root: never a shorter path that skips it.
        guard let built = X509_STORE_CTX_get0_chain(context), OPENSSL_sk_num(built) == 3,
              let middle = OPENSSL_sk_value(built, 1), X509_cmp(OpaquePointer(middle), intermediate.handle) == 0,
              let top = OPENSSL_sk_value(built, 2)
        else { throw .untrustedChain("the path is not leaf, intermediate, root") }
        guard leaf.hasExtension(oid: Self.leafOID) else { throw .leafOID }
        guard intermediate.hasExtension(oid: Self.intermediateOID) else { throw .intermediateOID }
        guard let key = leaf.publicKey, ES256.isP256(key), let prepared = LeafKey(leaf) else { throw .leafKeyNotP256 }
        guard let root = roots.first(where: { X509_cmp($0.handle, OpaquePointer(top)) == 0 }),
              let a = leaf.validity, let b = intermediate.validity, let c = root.validity
        else { throw .untrustedChain("a certificate's validity cannot be read") }
        return Verified(key: prepared, notBefore: max(a.notBefore, b.notBefore, c.notBefore), notAfter: min(a.notAfter, b.notAfter, c.notAfter))
    }
}
