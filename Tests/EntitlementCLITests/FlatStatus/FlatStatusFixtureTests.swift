import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `status --json` over flat transactions against the full path on the written-by-hand
/// profiles: every profile of the demo store and the as-of suite's shapes, at every instant
/// they name and a second either side. The flat path must answer each of them, byte for byte as the full path.
@Suite(.tags(.unit))
struct FlatStatusFixtureTests {
    typealias F = UnitTests.Fixture

    static func demoProfiles() throws -> [(user: String, bytes: [UInt8])] {
        let folder = demoStorePath + "/profiles"
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { $0.hasSuffix(".json") }.map { name in
            (String(name.dropLast(5)), Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
        }
    }

    @Test func everyDemoProfileAtEveryBoundaryIsTheFullAnswer() throws {
        let configuration = try EntitlementStore(root: demoStorePath).loadConfiguration()
        let profiles = try Self.demoProfiles()
        #expect(profiles.count >= 17)
        var compared = 0
        for (user, bytes) in profiles {
            for date in FlatStatusPaths.boundaries(of: bytes) + [demoDate] {
                for environment in EnvironmentFilter.allCases {
                    let full = FlatStatusPaths.full(bytes, user: user, configuration: configuration, environment: environment, at: date)
                    let flat = FlatStatusPaths.flat(bytes, user: user, configuration: configuration, environment: environment, at: date)
                    #expect(flat != nil, "\(user) takes the flat path")
                    #expect(flat == full, "\(user) \(environment) at \(ISODate.format(date)): \(FlatStatusPaths.text(flat))")
                    compared += 1
                }
            }
        }
        #expect(compared > 500)
    }

    /// Through the command line: `status USER --json` prints the full path's bytes, and
    /// `--explain`, `--profile-id` and the other formats still print what they did.
    @Test func theCommandPrintsTheFullAnswer() throws {
        let configuration = try EntitlementStore(root: demoStorePath).loadConfiguration()
        for (user, bytes) in try Self.demoProfiles() {
            for at in ["2025-06-01T00:00:00Z", "2026-01-15T12:00:00Z"] {
                let result = runCLI(["status", user, "--json", "--store", demoStorePath, "--at", at])
                #expect(result.exitCode == 0)
                #expect(Array(result.stdout.utf8) == FlatStatusPaths.full(bytes, user: user, configuration: configuration, at: F.date(at)), "\(user) at \(at)")
            }
        }
        let explained = runCLI(["status", "grace-period", "--json", "--explain", "--store", demoStorePath, "--at", "2026-01-15T12:00:00Z"])
        #expect(explained.exitCode == 0 && explained.stdout.contains("\"explanations\""))
        let missing = runCLI(["status", "nobody-here", "--json", "--store", demoStorePath, "--at", "2026-01-15T12:00:00Z"])
        #expect(missing.exitCode == 3 && missing.stdout.isEmpty)
    }

    /// The as-of suite's shapes (the rules tests' `AsKnownAtTests`): later renewals, a later
    /// purchase after a grace period, an upgrade recorded later, a grant that starts after it
    /// was recorded, renewal facts with their own dates, a later revocation, a profile created later.
    static func asOfShapes() -> [Profile] {
        let renewals = UnitTests.Fixture.monthlyRenewals
        let lapsed = F.purchase("g1", from: "2025-02-01T00:00:00Z", to: "2025-03-01T00:00:00Z", original: "g1")
        let resubscribed = F.purchase("g2", type: .subscriptionRenewed, from: "2025-03-20T00:00:00Z", to: "2025-04-20T00:00:00Z", original: "g1")
        let grace = ["g1": RenewalInfo(willRenew: true, billingIssueDetectedAt: F.date("2025-03-01T00:00:00Z"),
                                       gracePeriodExpiresAt: F.date("2025-03-17T00:00:00Z"), isInBillingRetry: true)]
        var yearly = F.purchase("u1", product: F.annual, from: "2025-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z", original: "u1")
        yearly.isUpgraded = true
        let upgrade = F.purchase("u2", product: F.annual, type: .subscriptionRenewed, from: "2025-06-01T00:00:00Z", to: "2026-06-01T00:00:00Z", original: "u1")
        let scheduled = F.grant("m1", from: "2025-01-10T00:00:00Z", starts: "2025-02-01T00:00:00Z", to: "2025-03-01T00:00:00Z")
        var refunded = renewals
        refunded[1].revokedAt = F.date("2025-02-20T00:00:00Z")
        refunded[1].revocationReason = "refunded"
        var created = F.profile(renewals)
        created.createdAt = F.date("2025-02-10T00:00:00Z")
        var paused = RenewalInfo(willRenew: true, isPaused: true, pausedAt: F.date("2025-03-15T00:00:00Z"), resumesAt: F.date("2025-06-01T00:00:00Z"))
        paused.billingIssueDetectedAt = F.date("2025-04-01T00:00:00Z")
        return [
            F.profile(renewals),
            F.profile([lapsed], renewals: grace), F.profile([lapsed, resubscribed], renewals: grace),
            F.profile([yearly, upgrade]), F.profile([yearly]),
            F.profile([scheduled]), F.profile(renewals + [scheduled]),
            F.profile(renewals, renewals: ["c1": RenewalInfo(willRenew: false, unsubscribedAt: F.date("2025-03-05T00:00:00Z"))]),
            F.profile(renewals, renewals: ["c1": paused]),
            F.profile(refunded), created,
        ]
    }

    @Test func theAsOfShapesAtEveryBoundaryAreTheFullAnswer() {
        for (number, profile) in Self.asOfShapes().enumerated() {
            let bytes = JSONWriter().bytes(profile.json)
            for date in FlatStatusPaths.boundaries(of: bytes) {
                let full = FlatStatusPaths.full(bytes, user: profile.customerUserID, configuration: F.configuration, at: date)
                let flat = FlatStatusPaths.flat(bytes, user: profile.customerUserID, configuration: F.configuration, at: date)
                #expect(flat != nil && flat == full, "shape \(number) at \(ISODate.format(date)): \(FlatStatusPaths.text(flat))")
            }
        }
    }
}
