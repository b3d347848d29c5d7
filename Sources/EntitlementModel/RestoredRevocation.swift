import FoundationEssentials
import EntitlementJSON

/// A revocation that `restore` undid; kept in the transaction so history loses nothing.
package struct RestoredRevocation: Equatable, Sendable {
    package var revokedAt: Date
    package var revokedBy: String?
    package var revocationReason: String?
    package var restoredAt: Date
    package var restoredBy: String
    package var restoreReason: String?

    package enum CodingKeys: String {
        case revokedAt = "revoked_at"
        case revokedBy = "revoked_by"
        case revocationReason = "revocation_reason"
        case restoredAt = "restored_at"
        case restoredBy = "restored_by"
        case restoreReason = "restore_reason"
    }

    /// True when the transaction counted as revoked at `date` because of this revocation.
    func covers(_ date: Date) -> Bool { revokedAt <= date && date < restoredAt }

    init(json reader: FieldReader) throws(FieldError) {
        typealias K = CodingKeys
        revokedAt = try reader.date(K.revokedAt.rawValue)
        revokedBy = try reader.optionalString(K.revokedBy.rawValue)
        revocationReason = try reader.optionalString(K.revocationReason.rawValue)
        restoredAt = try reader.date(K.restoredAt.rawValue)
        restoredBy = try reader.optionalString(K.restoredBy.rawValue) ?? "unknown"
        restoreReason = try reader.optionalString(K.restoreReason.rawValue)
    }

    package init(revokedAt: Date, revokedBy: String? = nil, revocationReason: String? = nil, restoredAt: Date, restoredBy: String, restoreReason: String? = nil) {
        self.revokedAt = revokedAt
        self.revokedBy = revokedBy
        self.revocationReason = revocationReason
        self.restoredAt = restoredAt
        self.restoredBy = restoredBy
        self.restoreReason = restoreReason
    }

    var json: JSONValue {
        typealias K = CodingKeys
        var object = JSONObject()
        object.mergeDate(K.revokedAt.rawValue, revokedAt)
        object.mergeString(K.revokedBy.rawValue, revokedBy)
        object.mergeString(K.revocationReason.rawValue, revocationReason)
        object.mergeDate(K.restoredAt.rawValue, restoredAt)
        object.mergeString(K.restoredBy.rawValue, restoredBy)
        object.mergeString(K.restoreReason.rawValue, restoreReason)
        return .object(object)
    }
}

extension Transaction {
    /// Revocations of this transaction that were later undone, oldest first.
    package var restoredRevocations: [RestoredRevocation] {
        get {
            guard case .array(let items)? = raw[Self.restoredRevocationsKey] else { return [] }
            return items.enumerated().compactMap { index, item in
                try? RestoredRevocation(json: FieldReader(item, path: "\(Self.restoredRevocationsKey)[\(index)]"))
            }
        }
        set { raw[Self.restoredRevocationsKey] = newValue.isEmpty ? nil : .array(newValue.map(\.json)) }
    }

    package static let restoredRevocationsKey = "restored_revocations"

    /// Validates `restored_revocations` when a transaction is read.
    static func checkRestoredRevocations(_ reader: FieldReader) throws(FieldError) {
        guard let items = try reader.optionalArray(restoredRevocationsKey) else { return }
        for (index, item) in items.enumerated() {
            _ = try RestoredRevocation(json: FieldReader(item, path: "\(reader.childPath(restoredRevocationsKey))[\(index)]"))
        }
    }

    /// When the transaction counts as revoked at `date` (revoked then, or inside a
    /// revocation that was later restored), the instant of that revocation.
    package func revocationInEffect(at date: Date) -> Date? {
        if let revokedAt, revokedAt <= date { return revokedAt }
        guard holdsRestoredRevocations else { return nil }
        return restoredRevocations.first { $0.covers(date) }?.revokedAt
    }
}
