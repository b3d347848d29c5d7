/// A compact JWS split and decoded, nothing verified yet (RFC 7515 section 7.1).
struct CompactJWS {
    /// The text's bytes, surrounding whitespace removed.
    let bytes: [UInt8]
    /// `header.payload` exactly as given: the bytes the signature covers.
    var signingInput: ArraySlice<UInt8> { bytes[..<signingEnd] }
    /// The header segment as given (base64url): the key of `SigningHeaders`.
    var headerSegment: ArraySlice<UInt8> { bytes[..<headerEnd] }
    /// The decoded header JSON.
    let header: [UInt8]
    /// The decoded payload JSON.
    let payload: [UInt8]
    /// The decoded signature.
    let signature: [UInt8]
    /// The header's fields that matter here; nil when the header was known (`known`).
    let fields: Header?
    /// The verified header this JWS's header segment matched, byte for byte.
    let known: SigningHeaders.Entry?
    private let headerEnd: Int
    private let signingEnd: Int

    /// The two header members Apple's format uses; any others are ignored, as Apple does.
    struct Header {
        /// `alg`, nil when absent or not a string.
        let alg: String?
        /// `x5c`, nil when absent or not an array of strings.
        let x5c: [String]?

        init?(_ bytes: [UInt8]) {
            guard let json = TrustJSON.parse(bytes), case .object = json else { return nil }
            alg = json["alg"]?.string
            if case .array(let items)? = json["x5c"] {
                let strings = items.compactMap(\.string)
                x5c = strings.count == items.count ? strings : nil
            } else {
                x5c = nil
            }
        }
    }

    /// Splits `text` (surrounding whitespace ignored) into its three base64url segments.
    /// A header segment that `headers` knows is not decoded again.
    ///
    /// `=` padding is accepted (docs/import.md section 2.1): it is part of the signed input.
    init(_ text: String, headers: SigningHeaders? = nil) throws(SignedDataError) {
        var all = Array(text.utf8)
        var start = 0, end = all.count
        while start < end, Self.isSpace(all[start]) { start += 1 }
        while end > start, Self.isSpace(all[end - 1]) { end -= 1 }
        if start > 0 || end < all.count { all = Array(all[start..<end]) }
        bytes = all
        var dots: [Int] = []
        for index in all.indices where all[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { break }
        }
        guard dots.count == 2 else {
            throw .segmentCount(dots.count > 2 ? all.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).count : dots.count + 1)
        }
        headerEnd = dots[0]
        signingEnd = dots[1]
        let headerSegment = all[..<dots[0]], payloadSegment = all[(dots[0] + 1)..<dots[1]], signatureSegment = all[(dots[1] + 1)...]
        let known = headerSegment.isEmpty ? nil : headers?.entry(for: headerSegment)
        let header: [UInt8]
        if let known {
            header = known.header
        } else {
            guard !headerSegment.isEmpty, let decoded = TrustBase64.decode(headerSegment, alphabet: .url) else { throw .malformed("the header is not base64url") }
            header = decoded
        }
        guard !payloadSegment.isEmpty, let payload = TrustBase64.decode(payloadSegment, alphabet: .url) else { throw .malformed("the payload is not base64url") }
        guard let signature = TrustBase64.decode(signatureSegment, alphabet: .url) else { throw .malformed("the signature is not base64url") }
        if known == nil {
            guard let fields = Header(header) else { throw .malformed("the header is not a JSON object") }
            self.fields = fields
        } else {
            fields = nil
        }
        self.known = known
        self.header = header
        self.payload = payload
        self.signature = signature
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
