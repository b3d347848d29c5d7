import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementTrust

/// App Store documents → an `ImportDocument` (docs/import.md, section 8). Pure.
package enum AppStoreMapper {
    package typealias K = AppleKey

    static func map(_ root: JSONValue, signature: DocumentSignature, path: String, jws: JWSReader) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .appstore, shape: signature.shape)
        switch signature {
        case .appStoreTransaction:
            let payload = try AppStorePayloads.transaction(FieldReader.vendorObject(root, path: path), into: &document)
            document.noteSignedDate(payload.signedDate)
        case .appStoreTransactions:
            try transactions(root, path: path, jws: jws, into: &document)
        case .appStoreRenewalInfo:
            let payload = try AppStorePayloads.renewal(FieldReader.vendorObject(root, path: path), into: &document)
            document.noteSignedDate(payload.signedDate)
        case .appStoreNotification:
            try notification(FieldReader.vendorObject(root, path: path), jws: jws, into: &document)
        case .appStoreSignedNotification:
            let envelope = try FieldReader.vendorObject(root, path: path)
            if let payload = try signedField(envelope, K.signedPayload, jws: jws, into: &document) {
                let start = document.transactions.count
                try notification(payload.reader, jws: jws, into: &document)
                document.markSignature(payload.signature, from: start)
            }
        case .appStoreStatuses:
            try statuses(FieldReader.vendorObject(root, path: path), jws: jws, into: &document)
        case .appStoreHistory:
            try history(FieldReader.vendorObject(root, path: path), jws: jws, into: &document)
        default:
            break
        }
        return document
    }

    /// A decoded JWS payload and what is known of its signature.
    struct SignedPayload {
        var reader: FieldReader
        var signature: JWSReader.Signature
    }

    /// A JWS string field: decoded payload, nil when absent or a placeholder (warned), exit 4 when broken or refused.
    static func signedField(_ reader: FieldReader, _ key: String, jws: JWSReader, into document: inout ImportDocument) throws(FieldError) -> SignedPayload? {
        guard let value = reader.value(key) else { return nil }
        guard case .string(let text) = value else { throw reader.vendorWrongType(key, expected: "a JWS string", found: value) }
        return try decode(text, path: reader.childPath(key), jws: jws, into: &document)
    }

    /// An `Xcode` or `LocalTesting` notification (accepted unsigned, if at all) carries only data of
    /// its own kind: a Production or Sandbox payload inside it would be dated and placed by a
    /// wrapper nobody signed, so it is refused as a signature failure (docs/security.md).
    static func requireLocal(_ payload: SignedPayload, under wrapper: String?) throws(FieldError) {
        guard let wrapper, AppStoreSignedDataVerifier.localEnvironments.contains(wrapper) else { return }
        let inner = try payload.reader.vendorString(K.environment)
        guard let inner, AppStoreSignedDataVerifier.localEnvironments.contains(inner) else {
            throw FieldError(path: payload.reader.path, message: "environment \(Terminal.escape(inner ?? "(none)")) inside a \(Terminal.escape(wrapper)) notification: data of Apple's environments is never accepted under an unsigned wrapper",
                             refusedSignature: true)
        }
    }

    /// The payload of one JWS, verified unless `jws` only decodes (docs/security.md).
    static func decode(_ text: String, path: String, jws: JWSReader, into document: inout ImportDocument) throws(FieldError) -> SignedPayload? {
        guard JWS.looksLikeJWS(text) else {
            document.warnings.append("\(path) is not a JWS (\(JWS.shortQuote(text))); skipped")
            document.skipped.append("\(path): not a JWS")
            return nil
        }
        let decoded: (object: JSONObject, signature: JWSReader.Signature)?
        do {
            decoded = try jws.payload(text)
        } catch {
            throw FieldError(path: path, message: error.description, refusedSignature: true)
        }
        guard let decoded else {
            throw FieldError(path: path, message: "not a valid JWS (the payload is not base64url-encoded JSON)")
        }
        document.noteJWS(decoded.signature)
        return SignedPayload(reader: FieldReader(decoded.object, path: ImportPath.payload(path)), signature: decoded.signature)
    }

    /// A transaction from a signed payload, marked with its signature state.
    static func signedTransaction(_ payload: SignedPayload, into document: inout ImportDocument) throws(FieldError) -> (subject: String, signedDate: Date?) {
        let start = document.transactions.count
        let result = try AppStorePayloads.transaction(payload.reader, into: &document)
        document.markSignature(payload.signature, from: start)
        return result
    }

    /// A2: decoded payloads, or JWS strings; the first element decides which.
    static func transactions(_ root: JSONValue, path: String, jws: JWSReader, into document: inout ImportDocument) throws(FieldError) {
        guard case .array(let items) = root, let first = items.first else { return }
        let signed: Bool
        if case .string = first { signed = true } else { signed = false }
        for (index, item) in items.enumerated() {
            let itemPath = ImportPath.index(path, index)
            if signed {
                guard case .string(let text) = item else {
                    throw FieldError(path: itemPath, message: "expected a JWS string like the first element, found \(ImportPath.show(item))")
                }
                if let payload = try decode(text, path: itemPath, jws: jws, into: &document) {
                    document.noteSignedDate(try signedTransaction(payload, into: &document).signedDate)
                }
            } else {
                document.noteSignedDate(try AppStorePayloads.transaction(FieldReader.vendorObject(item, path: itemPath), into: &document).signedDate)
            }
        }
    }

    /// A4 (and A5 once decoded): the signed transaction and renewal info, and `data.status`.
    package static func notification(_ r: FieldReader, jws: JWSReader, into document: inout ImportDocument) throws(FieldError) {
        let type = try r.vendorString(K.notificationType) ?? "notification"
        let subtype = try r.vendorString(K.subtype)
        let name = subtype.map { "\(type)/\($0)" } ?? type
        document.detail = name
        // Without `signedDate` the document's time is the run's (`--at`, else now; a webhook: the
        // request's arrival), as the verifier judges such a payload at the current time.
        if let signed = try r.vendorEpochMilliseconds(K.signedDate) {
            document.time = signed
            document.timeSource = .signedDate
        }
        guard let data = try r.vendorObject(K.data), data.value(K.signedTransactionInfo) != nil || data.value(K.signedRenewalInfo) != nil else {
            document.warnings.append("\(Terminal.escape(name)) notification carries no customer data; nothing imported")
            return
        }
        var subject: String?
        let wrapper = try data.vendorString(K.environment)
        if let payload = try signedField(data, K.signedTransactionInfo, jws: jws, into: &document) {
            try requireLocal(payload, under: wrapper)
            subject = try signedTransaction(payload, into: &document).subject
        }
        if let payload = try signedField(data, K.signedRenewalInfo, jws: jws, into: &document) {
            try requireLocal(payload, under: wrapper)
            let renewalSubject = try AppStorePayloads.renewal(payload.reader, into: &document).subject
            subject = subject ?? renewalSubject
        }
        if let status = try data.vendorInt(K.status) { appendStatement(status: status, subject: subject, into: &document) }
    }

    /// A6: every `data[i].lastTransactions[j]`, each with its own `status`.
    static func statuses(_ r: FieldReader, jws: JWSReader, into document: inout ImportDocument) throws(FieldError) {
        let groups = try r.vendorArray(K.data) ?? []
        for (groupIndex, group) in groups.enumerated() {
            let groupReader = try FieldReader.vendorObject(group, path: ImportPath.index(r.childPath(K.data), groupIndex))
            guard let entries = try groupReader.vendorArray(K.lastTransactions) else { throw groupReader.vendorMissing(K.lastTransactions) }
            for (index, entry) in entries.enumerated() {
                let item = try FieldReader.vendorObject(entry, path: ImportPath.index(groupReader.childPath(K.lastTransactions), index))
                guard let status = try item.vendorInt(K.status) else { throw item.vendorMissing(K.status) }
                let listed = try item.vendorNonEmptyString(K.originalTransactionId)
                var subject: String?
                if let payload = try signedField(item, K.signedTransactionInfo, jws: jws, into: &document) {
                    let result = try signedTransaction(payload, into: &document)
                    document.noteSignedDate(result.signedDate)
                    subject = result.subject
                }
                if let payload = try signedField(item, K.signedRenewalInfo, jws: jws, into: &document) {
                    let result = try AppStorePayloads.renewal(payload.reader, into: &document)
                    document.noteSignedDate(result.signedDate)
                    subject = subject ?? result.subject
                }
                appendStatement(status: status, subject: subject ?? listed, into: &document)
            }
        }
    }

    /// A7: one page of `signedTransactions`.
    static func history(_ r: FieldReader, jws: JWSReader, into document: inout ImportDocument) throws(FieldError) {
        let path = r.childPath(K.signedTransactions)
        for (index, item) in (try r.vendorArray(K.signedTransactions) ?? []).enumerated() {
            guard case .string(let text) = item else {
                throw FieldError(path: ImportPath.index(path, index), message: "expected a JWS string, found \(ImportPath.show(item))")
            }
            if let payload = try decode(text, path: ImportPath.index(path, index), jws: jws, into: &document) {
                document.noteSignedDate(try signedTransaction(payload, into: &document).signedDate)
            }
        }
        if try r.vendorBool(K.hasMore) == true {
            document.warnings.append("hasMore is true: only this page was imported")
        }
    }

    /// Section 8.5: a status code about one subscription.
    static func appendStatement(status: Int, subject: String?, into document: inout ImportDocument) {
        guard let (state, accepted) = AppleValue.status(status) else {
            document.warnings.append("unknown App Store status \(status); not compared")
            document.statements.append(VendorStatement(subject: .subscription(subject), vendorState: VendorState.unknown, accepted: [],
                                                       evidence: "status \(status)", notComparable: "unknown App Store status \(status)"))
            return
        }
        document.statements.append(VendorStatement(subject: .subscription(subject), vendorState: state, accepted: accepted,
                                                   evidence: "status \(status) (\(state))"))
    }
}
