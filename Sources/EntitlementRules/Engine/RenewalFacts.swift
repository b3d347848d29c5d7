import FoundationEssentials
import EntitlementModel

/// The renewal facts an access level reports, whichever reader found them: `RenewalInfo`
/// (the decoded profile, `StatusEngine`) or `CheckRenewal` (the profile's bytes,
/// `OneEntitlementEngine`). One protocol, so the two engines fill a level from one rule.
protocol RenewalFacts {
    var willRenew: Bool? { get }
    var unsubscribedAt: Date? { get }
    var billingIssueDetectedAt: Date? { get }
    var gracePeriodExpiresAt: Date? { get }
    var resumesAt: Date? { get }
}

extension RenewalInfo: RenewalFacts {}
extension CheckRenewal: RenewalFacts {}

extension AccessLevel {
    /// Copies the renewal facts onto a renewable level (a non-renewable one keeps none); a paused
    /// level also says when the store resumes it.
    /// The one home of this rule for both engines: `StatusEngine.accessLevel` and
    /// `OneEntitlementEngine.accessLevel` call it after setting `renewState`.
    mutating func applyRenewal(_ renewal: (some RenewalFacts)?) {
        guard renewState != .nonRenewable, let renewal else { return }
        willRenew = renewal.willRenew ?? false
        unsubscribedAt = renewal.unsubscribedAt
        billingIssueDetectedAt = renewal.billingIssueDetectedAt
        gracePeriodExpiresAt = renewal.gracePeriodExpiresAt
        if state == .paused { resumesAt = renewal.resumesAt }
    }
}
