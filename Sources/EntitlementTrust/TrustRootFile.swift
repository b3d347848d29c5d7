import COpenSSL

/// The certificates of one trust root file, read by libcrypto: PEM (`PEM_read_bio_X509`
/// through a memory BIO: LF or CRLF line ends, any text before, between or after the blocks,
/// as `openssl x509 -text` writes, and several blocks, each one a root), else exactly one DER
/// certificate (`d2i_X509`). Nothing of PEM or base64 is parsed by hand (docs/security.md,
/// "Trust roots").
enum TrustRootFile {
    /// Every certificate of `bytes`; nil when it holds none, or a PEM block libcrypto cannot read.
    static func certificates(_ bytes: [UInt8]) -> [Certificate]? {
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return nil }
        let pem = bytes.withUnsafeBytes { buffer -> [Certificate]? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            var found: [Certificate] = []
            ERR_clear_error()
            while let parsed = PEM_read_bio_X509(bio, nil, nil, nil) {
                guard let certificate = Certificate(owning: parsed) else { return nil }
                found.append(certificate)
            }
            // The loop ends at the end of the text (no further BEGIN line) or at a block that
            // does not parse; only the first is a file read to its end.
            let reason = ERR_GET_REASON(ERR_peek_last_error())
            ERR_clear_error()
            return reason == PEM_R_NO_START_LINE ? found : nil
        }
        guard let pem else { return nil }
        if !pem.isEmpty { return pem }
        return Certificate(der: bytes).map { [$0] }
    }
}
