import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

/// `check USER` with the fast path (`FastCheck`) and without it, on a store on disk of
/// readable, damaged, misplaced and missing profiles. (The twins themselves:
/// `FastCheckTests`; `check --stdin`'s lines on the same store: `FastCheckLineTests`.)
@Suite(.tags(.unit))
struct FastCheckStoreTests {
    /// The entitlements and environments asked about (`FastCheckLineTests` asks the same
    /// through `check`'s options; its `--strict` does not reach the answerer).
    static let questions: [(String, EnvironmentFilter)] = [("premium", .any), ("sports", .sandbox), ("science", .production)]

    /// `check USER` answers from the bytes too: wherever the fast path answers, its answer
    /// is the full path's (the decoded profile and `StatusEngine`).
    @Test func singleCheckAnswersAreTheSameWithAndWithoutTheFastPath() throws {
        let directory = TemporaryDirectory()
        let (store, users) = try CheckFixture.store(in: directory)
        let configuration = try store.loadConfiguration()
        for date in ["2025-07-01T00:00:00Z", "2026-01-15T12:00:00Z"].map(UnitTests.Fixture.date) {
            for (entitlement, environment) in Self.questions {
                var answered = 0
                for user in users where (try? UserID.validate(user)) != nil {
                    let answerer = Self.singleAnswerer(entitlement, environment: environment, store: store, configuration: configuration, date: date)
                    defer { answerer.fast?.close() }
                    guard let fast = answerer.fastDetail(.user(user), lastEventAt: true) else { continue }
                    answered += 1
                    let full = try answerer.fullDetail(.user(user))
                    #expect(fast.level == full.level, "\(entitlement) \(environment) \(user)")
                    #expect(fast.userID == full.userID && fast.profileID == full.profileID && fast.hasProfile == full.hasProfile, "\(entitlement) \(environment) \(user)")
                    #expect(fast.lastEventAt == full.lastEventAt, "\(entitlement) \(environment) \(user)")
                }
                #expect(answered >= 15, "\(entitlement) \(environment)")
            }
        }
        // --explain needs the engine's reasons, and a lookup by profile id the index: both take the
        // full path (the one that keeps the evaluation), for a user the fast path answers otherwise.
        let date = UnitTests.Fixture.date("2025-07-01T00:00:00Z")
        func single(_ lookup: CheckAnswerer.Lookup, explain: Bool) throws -> CheckAnswerer.Detail {
            try CheckAnswerer.single(lookup, store: store, configuration: configuration, entitlement: "premium", environment: .any, date: date,
                                     explain: explain, lastEventAt: false)
        }
        let plain = try #require(users.first { user in (try? UserID.validate(user)) != nil && (try? single(.user(user), explain: false))?.evaluation == nil })
        #expect(try single(.user(plain), explain: true).evaluation != nil)
        let profileID = try #require(try store.loadProfile(userID: plain)?.profileID)
        #expect(try single(.profileID(profileID), explain: false).evaluation != nil)
    }

    /// What `check USER` asks about `entitlement` in `environment` without --explain: the fast path first.
    static func singleAnswerer(_ entitlement: String, environment: EnvironmentFilter, store: EntitlementStore, configuration: ProductConfiguration,
                               date: Date) -> CheckAnswerer {
        let fast = FastCheck(store: store, configuration: configuration, entitlement: entitlement, environment: environment, date: date)
        return CheckAnswerer(store: store, engine: StatusEngine(configuration: configuration, environment: environment),
                             entitlement: entitlement, date: date, strict: false, fast: fast)
    }
}
