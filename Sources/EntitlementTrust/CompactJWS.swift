import FoundationEssentials

/// A compact JWS split and decoded, nothing verified yet (RFC 7515 section 7.1).
struct CompactJWS {
    /// `header.payload` exactly as given: the bytes the signature covers.
    let signingInput: [UInt8]
    /// The decoded header JSON.
    let header: [UInt8]
    /// The decoded payload JSON.
    let payload: [UInt8]
    /// The decoded signature.
    let signature: [UInt8]
    /// The header's fields that matter here.
    let fields: Header

    /// The two header members Apple's format uses; any others are ignored, as Apple does.
    struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
    }

    /// Splits `text` (surrounding whitespace ignored) into its three base64url segments.
    ///
    /// `=` padding is accepted (docs/import.md section 2.1): it is part of the signed input.
    init(_ text: String) throws(SignedDataError) {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, Self.isSpace(first) { bytes.removeFirst() }
        while let last = bytes.last, Self.isSpace(last) { bytes.removeLast() }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .segmentCount(segments.count) }
        guard !segments[0].isEmpty, let header = TrustBase64.decode(segments[0], alphabet: .url) else { throw .malformed("the header is not base64url") }
        guard !segments[1].isEmpty, let payload = TrustBase64.decode(segments[1], alphabet: .url) else { throw .malformed("the payload is not base64url") }
        guard let signature = TrustBase64.decode(segments[2], alphabet: .url) else { throw .malformed("the signature is not base64url") }
        guard let fields = try? JSONDecoder().decode(Header.self, from: Data(header)) else { throw .malformed("the header is not a JSON object") }
        signingInput = Array(bytes[segments[0].startIndex..<segments[1].endIndex])
        self.header = header
        self.payload = payload
        self.signature = signature
        self.fields = fields
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
