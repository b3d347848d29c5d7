import EntitlementJSON
import EntitlementModel
import EntitlementTrust

/// One document's bytes → JSON (or a bare JWS) → its shape → an `ImportDocument`. Pure.
package enum DocumentMapper {
    /// Maps the document `bytes`, named `file` in messages; `format` restricts detection (`--format`).
    /// `line` and `column` say where the bytes start in their input, for syntax errors.
    /// `jws` verifies every JWS in it, or only decodes them (`--no-verify`).
    package static func map(_ bytes: [UInt8], file: String, format: Vendor?, line: Int = 1, column: Int = 1, jws: JWSReader) throws(EntitlementError) -> ImportDocument {
        var (root, path, whole) = try parse(bytes, file: file, line: line, column: column, jws: jws)
        if whole == nil, case .string(let text) = root, JWS.looksLikeJWS(text) {
            (root, whole) = try decodeWhole(text, file: file, jws: jws)
            path = ImportPath.payload(path)
        }
        let signature = try FormatDetector.detect(root, format: format, file: file)
        do {
            var document: ImportDocument
            switch signature.format {
            case .appstore: document = try AppStoreMapper.map(root, signature: signature, path: path, jws: jws)
            case .revenuecat: document = try RevenueCatMapper.map(root, path: path)
            case .adapty: document = try AdaptyMapper.map(root, signature: signature, path: path)
            case .qonversion: document = try QonversionMapper.map(root, signature: signature, path: path)
            case .googleplay: document = try GooglePlayMapper.map(root, path: path)
            case .stripe: document = try StripeMapper.map(root, signature: signature, path: path)
            }
            if let whole {
                document.noteJWS(whole)
                document.markSignature(whole, from: 0)
            }
            return document
        } catch {
            if error.refusedSignature { throw .untrustedSignedData(file: file, detail: error.description) }
            throw .invalidImport(file: file, detail: error.description)
        }
    }

    /// The JSON value of the text, or the payload of a text that is one compact JWS (section 2.1)
    /// with its signature state.
    static func parse(_ bytes: [UInt8], file: String, line: Int, column: Int, jws: JWSReader) throws(EntitlementError) -> (JSONValue, String, JWSReader.Signature?) {
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let trimmed = text.drop { isSpace($0) }.reversed().drop { isSpace($0) }
        guard !trimmed.isEmpty else { throw .invalidImport(file: file, detail: "the document is empty") }
        if trimmed.count < 100_000, let string = String(validating: Array(text), as: UTF8.self), JWS.looksLikeJWS(string) {
            let (root, signature) = try decodeWhole(string, file: file, jws: jws)
            return (root, ImportPath.payload(""), signature)
        }
        do {
            return (try JSONParser.parse(Array(text), allowTrailingCommas: true), "", nil)
        } catch {
            var located = error
            if located.line == 1 { located.column += column - 1 }
            located.line += line - 1
            throw .invalidImport(file: file, detail: "invalid JSON at \(located.description)")
        }
    }

    static func decodeWhole(_ text: String, file: String, jws: JWSReader) throws(EntitlementError) -> (JSONValue, JWSReader.Signature) {
        let decoded: (object: JSONObject, signature: JWSReader.Signature)?
        do {
            decoded = try jws.payload(text)
        } catch {
            throw .untrustedSignedData(file: file, detail: error.description)
        }
        guard let decoded else {
            throw .invalidImport(file: file, detail: "not a valid JWS (the payload is not base64url-encoded JSON)")
        }
        return (.object(decoded.object), decoded.signature)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
