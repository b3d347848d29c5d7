import FoundationEssentials
import EntitlementJSON

/// Renewal state of one subscription, keyed in the profile by `original_transaction_id`.
package struct RenewalInfo: Equatable, Sendable {
    package var willRenew: Bool?
    package var unsubscribedAt: Date?
    package var billingIssueDetectedAt: Date?
    package var gracePeriodExpiresAt: Date?
    package var isInBillingRetry: Bool?
    /// The store paused the subscription (Google Play `PAUSED`, Stripe `paused` or
    /// `pause_collection`): once its last period has ended there is no access until `resumesAt`.
    package var isPaused: Bool?
    /// When the pause was recorded; "as known at T" undoes a pause recorded after T.
    package var pausedAt: Date?
    /// When the store resumes billing (Play `autoResumeTime`, Stripe `resumes_at`); nil when not known.
    package var resumesAt: Date?
    /// The object as read, with fields this version does not know.
    package var raw: JSONObject {
        get { rawStorage.object }
        set { rawStorage = RawObject(newValue) }
    }
    /// One member of `raw`, without parsing the others (`RawObject.member`).
    package func rawMember(_ key: String) -> JSONValue? { rawStorage.member(key) }
    /// `raw`, parsed only when asked for (see `RawObject`).
    var rawStorage: RawObject

    /// The keys `init(json:)` reads, found in one pass.
    package static let fieldTable = FieldTable(knownKeys)

    /// The keys with a property, in slot order (`ProfileDecoder.RenewalSlot`).
    package static let knownKeys = [CodingKeys.willRenew, .unsubscribedAt, .billingIssueDetectedAt, .gracePeriodExpiresAt, .isInBillingRetry,
                            .isPaused, .pausedAt, .resumesAt].map { $0.rawValue }

    package enum CodingKeys: String {
        case willRenew = "will_renew"
        case unsubscribedAt = "unsubscribed_at"
        case billingIssueDetectedAt = "billing_issue_detected_at"
        case gracePeriodExpiresAt = "grace_period_expires_at"
        case isInBillingRetry = "is_in_billing_retry"
        case isPaused = "is_paused"
        case pausedAt = "paused_at"
        case resumesAt = "resumes_at"
    }

    package init(
        willRenew: Bool? = nil, unsubscribedAt: Date? = nil, billingIssueDetectedAt: Date? = nil,
        gracePeriodExpiresAt: Date? = nil, isInBillingRetry: Bool? = nil, isPaused: Bool? = nil, pausedAt: Date? = nil, resumesAt: Date? = nil
    ) {
        self.willRenew = willRenew
        self.unsubscribedAt = unsubscribedAt
        self.billingIssueDetectedAt = billingIssueDetectedAt
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.isInBillingRetry = isInBillingRetry
        self.isPaused = isPaused
        self.pausedAt = pausedAt
        self.resumesAt = resumesAt
        self.rawStorage = RawObject()
    }

    package init(json reader: FieldReader) throws(FieldError) {
        try self.init(json: FieldReader(reader.object, path: reader.path, fields: Self.fieldTable), oneFieldAtATime: ())
    }

    /// Reads the fields in order through `reader`, whichever way it finds them.
    init(json reader: FieldReader, oneFieldAtATime: Void) throws(FieldError) {
        willRenew = try reader.optionalBool(CodingKeys.willRenew.rawValue)
        unsubscribedAt = try reader.optionalDate(CodingKeys.unsubscribedAt.rawValue)
        billingIssueDetectedAt = try reader.optionalDate(CodingKeys.billingIssueDetectedAt.rawValue)
        gracePeriodExpiresAt = try reader.optionalDate(CodingKeys.gracePeriodExpiresAt.rawValue)
        isInBillingRetry = try reader.optionalBool(CodingKeys.isInBillingRetry.rawValue)
        isPaused = try reader.optionalBool(CodingKeys.isPaused.rawValue)
        pausedAt = try reader.optionalDate(CodingKeys.pausedAt.rawValue)
        resumesAt = try reader.optionalDate(CodingKeys.resumesAt.rawValue)
        rawStorage = RawObject(reader.object)
    }

    /// The object to store: the raw object with the known fields written over it.
    package var json: JSONValue {
        var object = raw
        object.merge(CodingKeys.willRenew.rawValue, willRenew.map(JSONValue.bool))
        object.mergeDate(CodingKeys.unsubscribedAt.rawValue, unsubscribedAt)
        object.mergeDate(CodingKeys.billingIssueDetectedAt.rawValue, billingIssueDetectedAt)
        object.mergeDate(CodingKeys.gracePeriodExpiresAt.rawValue, gracePeriodExpiresAt)
        object.merge(CodingKeys.isInBillingRetry.rawValue, isInBillingRetry.map(JSONValue.bool))
        object.merge(CodingKeys.isPaused.rawValue, isPaused.map(JSONValue.bool))
        object.mergeDate(CodingKeys.pausedAt.rawValue, pausedAt)
        object.mergeDate(CodingKeys.resumesAt.rawValue, resumesAt)
        return .object(object)
    }

    /// True when the pause holds at `date`: paused, and not yet due to resume.
    package func isPaused(at date: Date) -> Bool {
        isPaused == true && (resumesAt.map { $0 > date } ?? true)
    }

    /// Fields this version does not know (and `vendor`), as read: compared as a value.
    var unknownFields: JSONObject {
        let known = Set(Self.knownKeys)
        return JSONObject(raw.entries.filter { !known.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// Field by field; unknown fields compare as a value.
    package static func == (lhs: RenewalInfo, rhs: RenewalInfo) -> Bool {
        lhs.willRenew == rhs.willRenew && lhs.unsubscribedAt == rhs.unsubscribedAt
            && lhs.billingIssueDetectedAt == rhs.billingIssueDetectedAt && lhs.gracePeriodExpiresAt == rhs.gracePeriodExpiresAt
            && lhs.isInBillingRetry == rhs.isInBillingRetry && lhs.isPaused == rhs.isPaused && lhs.pausedAt == rhs.pausedAt
            && lhs.resumesAt == rhs.resumesAt && lhs.unknownFields == rhs.unknownFields
    }
}
