import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// `paused` (Google Play `PAUSED`, Stripe `paused`): no access after the last period
    /// until the store resumes; access until then; "as known at T" before the pause was recorded.
    struct PausedStateTests {
        typealias F = Fixture

        static let period = F.purchase("p1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", original: "p1")
        static let pause = ["p1": RenewalInfo(willRenew: true, isPaused: true, pausedAt: F.date("2026-01-20T00:00:00Z"),
                                              resumesAt: F.date("2026-03-01T00:00:00Z"))]

        @Test(arguments: [
            ("2026-01-10T00:00:00Z", AccessState.active, nil as String?),
            ("2026-01-25T00:00:00Z", .active, nil),
            ("2026-02-01T00:00:00Z", .paused, "2026-03-01T00:00:00Z"),
            ("2026-02-28T23:59:59Z", .paused, "2026-03-01T00:00:00Z"),
            ("2026-03-01T00:00:00Z", .expired, nil),
        ])
        func stateBeforeInsideAndAfterThePause(at: String, state: AccessState, resumes: String?) {
            let level = F.level([Self.period], renewals: Self.pause, at: at)
            #expect(level.state == state)
            #expect(level.isActive == (state == .active))
            #expect(level.resumesAt == resumes.map(F.date))
            #expect(level.json["resumes_at"] == resumes.map { .string($0) } ?? .null)
        }

        @Test func aPauseRecordedLaterIsNotKnownBefore() {
            let recordedLate = ["p1": RenewalInfo(isPaused: true, pausedAt: F.date("2026-02-10T00:00:00Z"), resumesAt: F.date("2026-03-01T00:00:00Z"))]
            #expect(F.level([Self.period], renewals: recordedLate, at: "2026-02-05T00:00:00Z").state == .expired)
            #expect(F.level([Self.period], renewals: recordedLate, at: "2026-02-10T00:00:00Z").state == .paused)
            let evaluation = F.engine.evaluate("premium", for: F.profile([Self.period], renewals: recordedLate), at: F.date("2026-02-05T00:00:00Z"))
            #expect(evaluation.ignored == [IgnoredRecord(kind: .pause, subject: "p1", recordedAt: F.date("2026-02-10T00:00:00Z"))])
        }

        @Test func aPauseWithoutResumeTimeHoldsUntilARenewal() {
            let open = ["p1": RenewalInfo(isPaused: true)]
            let level = F.level([Self.period], renewals: open, at: "2027-01-01T00:00:00Z")
            #expect(level.state == .paused && level.resumesAt == nil)
            let resumed = F.purchase("p2", type: .subscriptionRenewed, from: "2026-04-01T00:00:00Z", to: "2026-05-01T00:00:00Z", original: "p1")
            #expect(F.level([Self.period, resumed], renewals: open, at: "2026-04-10T00:00:00Z").state == .active)
        }

        @Test func aPauseOutranksBillingRetryAndLeavesRevocationsAlone() {
            var both = Self.pause
            both["p1"]?.isInBillingRetry = true
            #expect(F.level([Self.period], renewals: both, at: "2026-02-10T00:00:00Z").state == .paused)
            let refunded = F.purchase("p1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", original: "p1", revoked: "2026-01-15T00:00:00Z")
            #expect(F.level([refunded], renewals: Self.pause, at: "2026-02-10T00:00:00Z").state == .revoked)
        }

        @Test func theFastPathAnswersPausedAsTheEngineDoes() {
            let bytes = JSONWriter().bytes(F.profile([Self.period], renewals: Self.pause).json)
            var scanner = CheckProfileScanner()
            let configuration = ProductConfiguration(entitlements: [.init(id: "premium", products: [F.monthly])])
            for at in ["2026-01-25T00:00:00Z", "2026-02-10T00:00:00Z", "2026-03-10T00:00:00Z", "2026-01-19T00:00:00Z"] {
                let engine = OneEntitlementEngine("premium", configuration: configuration, environment: .any)!
                let fast = bytes.withUnsafeBufferPointer { FastCheck.answer($0, userID: "alice@example.com", engine: engine, at: F.date(at), scanner: &scanner) }
                let full = StatusEngine(configuration: configuration).evaluate("premium", for: F.profile([Self.period], renewals: Self.pause), at: F.date(at))
                #expect(fast?.0 == full.accessLevel, "\(at)")
            }
        }

        @Test func theStoredPauseRoundTrips() throws {
            let info = try #require(Self.pause["p1"])
            let read = try RenewalInfo(json: FieldReader(#require(info.json.objectValue), path: "renewal_info.p1"))
            #expect(read == info)
            #expect(info.json.objectValue?["is_paused"] == .bool(true))
        }
    }
}
