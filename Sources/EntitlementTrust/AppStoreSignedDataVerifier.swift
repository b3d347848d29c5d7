/// Verifies App Store signed data (JWS) as Apple's `SignedDataVerifier` does, offline.
///
/// Format (three segments, `alg` ES256, `x5c` of three), chain (leaf ← intermediate ← a
/// configured root; `x5c[2]` is never trusted), Apple's OIDs, validity at the payload's
/// `signedDate`, the ES256 signature, then identity when configured. See docs/security.md.
/// One verifier caches chain results, so build it once per run and share it.
package struct AppStoreSignedDataVerifier: Sendable {
    /// `Xcode` and `LocalTesting`: data StoreKit signs on a developer's machine.
    package static let localEnvironments: Set<String> = ["Xcode", "LocalTesting"]

    package let bundleID: String?
    package let appAppleID: Int64?
    package let environment: String?
    package let allowXcode: Bool
    /// How far (seconds) the `signedDate` of data accepted unsigned may be after the run's time.
    static let futureSkew: Int64 = 300
    /// The effective date (Unix seconds) for a payload without `signedDate`: the injected now.
    package let fallbackDate: Int64?
    /// Built at the first chain to verify: parsing Apple's root sets up libcrypto's decoders,
    /// three quarters of a RevenueCat webhook's instructions, which never needs it.
    private let chains: LazyChainVerifier
    /// Headers whose chain passed, by their base64url bytes (`SigningHeaders`).
    private let headers = SigningHeaders()
    /// Counts ES256 verifications and chains built, when a test gives one.
    package let counter: SignatureCounter?

    /// A verifier trusting Apple Root CA - G3 (unless `includeAppleRoot` is false) and every
    /// certificate of the `trustRoots` files (DER, or PEM with one or more blocks: `TrustRootFile`).
    /// `strict` keeps libcrypto's `X509_V_FLAG_X509_STRICT` on; Apple's own test certificates
    /// need it off (they lack key identifiers).
    package init(trustRoots: [[UInt8]] = [], includeAppleRoot: Bool = true, bundleID: String? = nil, appAppleID: Int64? = nil,
                 environment: String? = nil, allowXcode: Bool = false, strict: Bool = true, fallbackDate: Int64? = nil,
                 counter: SignatureCounter? = nil) throws(SignedDataError) {
        var roots: [Certificate] = []
        for (index, bytes) in trustRoots.enumerated() {
            guard let found = TrustRootFile.certificates(bytes), !found.isEmpty else { throw .unreadableTrustRoot(index) }
            roots += found
        }
        chains = LazyChainVerifier(roots: roots, includeAppleRoot: includeAppleRoot, strict: strict, counter: counter)
        self.counter = counter
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
        self.allowXcode = allowXcode
        self.fallbackDate = fallbackDate
    }

    /// The verified payload's JSON bytes.
    package func verify(_ jws: String) throws(SignedDataError) -> [UInt8] {
        try verifyDecoded(jws).payload
    }

    /// The verified JWS's header, payload, `signedDate` and environment.
    package func verifyDecoded(_ jws: String) throws(SignedDataError) -> VerifiedSignedData {
        let parts = try CompactJWS(jws, headers: headers)
        guard let claims = SignedPayloadClaims.read(parts.payload) else { throw .malformed("the payload is not a JSON object") }
        let stated = claims.anyEnvironment
        var checked = true
        if let stated, Self.localEnvironments.contains(stated) {
            guard allowXcode else { throw .xcodeNotAllowed(stated) }
            // Unsigned data cannot date itself into the future: it would outrank Apple's later events.
            if let signed = claims.signedDate, let now = fallbackDate, signed / 1000 > now + Self.futureSkew {
                throw .signedInFuture(signed / 1000)
            }
            checked = false
        } else {
            try verifySignature(parts, claims: claims)
        }
        try checkIdentity(claims)
        return VerifiedSignedData(header: parts.header, payload: parts.payload, signedDate: claims.signedDate, environment: stated, signatureChecked: checked)
    }

    private func verifySignature(_ parts: CompactJWS, claims: SignedPayloadClaims) throws(SignedDataError) {
        let chain: ChainVerifier.Verified
        let date: Int64
        if let known = parts.known {
            // This very header passed before: only the payload's date and the signature are new.
            date = try effectiveDate(claims)
            chain = known.chain
        } else {
            guard let fields = parts.fields, fields.alg == "ES256" else { throw .algorithm(parts.fields?.alg) }
            guard let x5c = fields.x5c else { throw .missingCertificateChain }
            guard x5c.count == 3 else { throw .certificateCount(x5c.count) }
            var ders: [[UInt8]] = []
            for (index, entry) in x5c.enumerated() {
                guard let der = TrustBase64.decode(entry.utf8, alphabet: .standard), !der.isEmpty else { throw .unreadableCertificate(index: index) }
                ders.append(der)
            }
            date = try effectiveDate(claims)
            chain = try chains.verifier.verified(leaf: ders[0], intermediate: ders[1])
            headers.remember(parts.headerSegment, SigningHeaders.Entry(header: parts.header, chain: chain))
        }
        try chain.requireValid(at: date)
        counter?.countSignature()
        try ES256.verify(signature: parts.signature, message: parts.signingInput, key: chain.key)
    }

    /// The payload's `signedDate` in Unix seconds (rounded down), else the fallback date.
    private func effectiveDate(_ claims: SignedPayloadClaims) throws(SignedDataError) -> Int64 {
        guard let date = claims.signedDate.map({ $0 >= 0 ? $0 / 1000 : ($0 - 999) / 1000 }) ?? fallbackDate else { throw .missingSignedDate }
        return date
    }

    private func checkIdentity(_ claims: SignedPayloadClaims) throws(SignedDataError) {
        let notification = claims.isNotification
        if let bundleID, notification || claims.anyBundleID != nil, claims.anyBundleID != bundleID {
            throw .bundleID(found: claims.anyBundleID, expected: bundleID)
        }
        if let appAppleID, notification, claims.anyEnvironment == "Production", claims.anyAppAppleID != appAppleID {
            throw .appAppleID(found: claims.anyAppAppleID, expected: appAppleID)
        }
        if let environment, claims.anyEnvironment != environment {
            throw .environment(found: claims.anyEnvironment, expected: environment)
        }
    }
}
