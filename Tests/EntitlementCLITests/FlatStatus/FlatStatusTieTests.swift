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

/// `status --json` over flat transactions against the full path where instants tie: equal
/// purchase and start dates within one renewal chain, one product and across the products of
/// one entitlement, equal expiries, a revocation at the start, an upgrade starting the second
/// the old period is superseded, and the `--at` instant on, just before and just after each
/// of them. Generated from a seed over a handful of instants, with ids and file order drawn
/// apart from date order, so that every tie-break (by start, by id, by file position) is reached.
@Suite(.tags(.unit))
struct FlatStatusTieTests {
    typealias F = UnitTests.Fixture
    static let user = "alice@example.com"
    /// Few instants, so that most dates of a profile equal another one.
    static let instants = ["2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z", "2025-02-01T00:00:01Z", "2025-03-01T00:00:00Z",
                           "2025-04-01T00:00:00Z"].map(F.date)

    /// A profile of 2 to 9 transactions whose dates are drawn from `instants`.
    static func profile(_ random: inout SplitMix64) -> Profile {
        func draw(_ count: Int) -> Int { ProfileGenerator.draw(&random, count) }
        func instant() -> Date { instants[draw(instants.count)] }
        let count = 2 + draw(8)
        // Ids drawn from a shuffled pool: their byte order is neither date nor file order.
        var ids = ["t10", "t2", "a9", "T1", "t1", "b", "t20", "t3", "x0"]
        for index in ids.indices.reversed() { ids.swapAt(index, draw(index + 1)) }
        let subscriptions = [F.monthly, F.annual, F.sportsMonthly]
        var transactions: [Transaction] = []
        for index in 0..<count {
            let id = ids[index]
            let start = instant()
            let kind = draw(10)
            var transaction: Transaction
            if kind < 6 {
                let original = draw(4) == 0 ? id : ["o1", "o2"][draw(2)]
                let type: TransactionType = [.subscriptionStarted, .subscriptionRenewed, .trialStarted, .introRenewed][draw(4)]
                let ends = [start, start.addingTimeInterval(1), instant(), instant(), instants.last!.addingTimeInterval(86_400)]
                transaction = Transaction(transactionID: id, originalTransactionID: original, productID: subscriptions[draw(3)], store: .appStore,
                                          type: type, purchasedAt: start, expiresAt: draw(8) == 0 ? nil : ends[draw(ends.count)])
                if draw(5) == 0 { transaction.isUpgraded = true }
            } else if kind < 8 {
                let type: TransactionType = [.nonConsumablePurchase, .consumablePurchase][draw(2)]
                transaction = Transaction(transactionID: id, originalTransactionID: draw(2) == 0 ? "o1" : nil,
                                          productID: [F.lifetime, F.coins, F.lifetime][draw(3)], store: .appStore, type: type, purchasedAt: start, expiresAt: nil)
            } else {
                transaction = Transaction(transactionID: id, productID: nil, store: .manual, type: .manualGrant, purchasedAt: instant(),
                                          startsAt: draw(2) == 0 ? start : nil, expiresAt: draw(3) == 0 ? nil : [start, instant()][draw(2)])
                transaction.entitlement = ["premium", "sports"][draw(2)]
                // Recorded (granted) at, before, or after the instant it was bought for.
                transaction.grantedAt = draw(3) == 0 ? instant() : transaction.purchasedAt
                transaction.grantedBy = "dana"
            }
            if draw(3) == 0, !transaction.isManualGrant, transaction.type.isSubscription { transaction.startsAt = [start, instant()][draw(2)] }
            if draw(5) == 0 {
                transaction.revokedAt = [transaction.effectiveStart, instant(), transaction.effectiveStart.addingTimeInterval(1)][draw(3)]
                transaction.revocationReason = "refunded"
            }
            if draw(4) == 0 { transaction.environment = .sandbox }
            if draw(2) == 0 {
                transaction.price = [4.99, 0.99, 12][draw(3)]
                transaction.currency = "USD"
            }
            // The same id in another store is no repeat; stores also split a chain's ties.
            if !transaction.isManualGrant, draw(4) == 0 {
                transaction.store = [.playStore, .stripe][draw(2)]
                if draw(2) == 0, let earlier = transactions.last(where: { !$0.isManualGrant && $0.store == .appStore }),
                   !transactions.contains(where: { $0.transactionID == earlier.transactionID && $0.store == transaction.store }) {
                    transaction.transactionID = earlier.transactionID
                }
            }
            transactions.append(transaction)
        }
        var profile = F.profile(transactions)
        for original in ["o1", "o2"] where draw(3) == 0 {
            let at = instant()
            profile.renewalInfo[original] = [
                RenewalInfo(willRenew: false, unsubscribedAt: at),
                RenewalInfo(willRenew: true, billingIssueDetectedAt: at, gracePeriodExpiresAt: instant(), isInBillingRetry: true),
                RenewalInfo(willRenew: true, isPaused: true, pausedAt: at, resumesAt: instant()),
            ][draw(3)]
        }
        if draw(4) == 0 { profile.createdAt = instant() }
        return profile
    }

    /// Every instant of `instants`, a second before and after, and one far past and future.
    static let dates = instants.flatMap { [$0.addingTimeInterval(-1), $0, $0.addingTimeInterval(1)] }
        + [F.date("2024-01-01T00:00:00Z"), F.date("2030-01-01T00:00:00Z")]

    @Test func tiedInstantsAreTheFullAnswer() {
        var random = SplitMix64(seed: 35_0101)
        var compared = 0, tiedStarts = 0, tiedExpiries = 0, revokedAtStart = 0, upgraded = 0
        for round in 0..<800 {
            let profile = Self.profile(&random)
            let chains = Dictionary(grouping: profile.transactions.filter { !$0.isManualGrant }, by: \.originalTransactionID).values
            if chains.contains(where: { Set($0.map(\.effectiveStart)).count < $0.count }) { tiedStarts += 1 }
            if chains.contains(where: { Set($0.compactMap(\.expiresAt)).count < $0.compactMap(\.expiresAt).count }) { tiedExpiries += 1 }
            if profile.transactions.contains(where: { $0.revokedAt == $0.effectiveStart }) { revokedAtStart += 1 }
            if profile.transactions.contains(where: { $0.isUpgraded == true }) { upgraded += 1 }
            let bytes = [JSONWriter(), JSONWriter(style: .compact)][round % 2].bytes(profile.json)
            for date in Self.dates {
                let environment = EnvironmentFilter.allCases[ProfileGenerator.draw(&random, 3)]
                let full = FlatStatusPaths.full(bytes, user: Self.user, configuration: F.configuration, environment: environment, at: date)
                let flat = FlatStatusPaths.flat(bytes, user: Self.user, configuration: F.configuration, environment: environment, at: date)
                #expect(full != nil && flat == full, "round \(round) \(environment) \(ISODate.format(date)):\n\(String(decoding: bytes, as: UTF8.self))\nflat: \(FlatStatusPaths.text(flat))\nfull: \(FlatStatusPaths.text(full))")
                compared += 1
            }
        }
        #expect(compared == 800 * Self.dates.count)
        // The ties this suite is for are common, not rare.
        #expect(tiedStarts > 200 && tiedExpiries > 100 && revokedAtStart > 30 && upgraded > 100, "\(tiedStarts) \(tiedExpiries) \(revokedAtStart) \(upgraded)")
    }

    /// Through the command line, from a store's file (`ProfileBytes`): 60 of these profiles
    /// at each tied instant print the full path's bytes.
    @Test func theCommandPrintsTheFullAnswerWhereInstantsTie() throws {
        var random = SplitMix64(seed: 35_0102)
        let directory = TemporaryDirectory()
        let root = directory.store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["com.example.premium.monthly", "com.example.premium.annual", "com.example.lifetime", "com.example.coins"]}, "sports": {"products": ["com.example.sports.monthly", "com.example.premium.annual"]}}}"#)
        let store = EntitlementStore(root: root)
        let configuration = try store.loadConfiguration()
        let file = store.profilesPath + "/" + store.layout.profileFile(for: Self.user)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for round in 0..<60 {
            let bytes = JSONWriter().bytes(Self.profile(&random).json)
            writeFile(file, String(decoding: bytes, as: UTF8.self))
            for date in Self.instants {
                let full = FlatStatusPaths.full(bytes, user: Self.user, configuration: configuration, at: date)
                let result = runCLI(["status", Self.user, "--json", "--store", root, "--at", ISODate.format(date)])
                #expect(full != nil && result.exitCode == 0 && Array(result.stdout.utf8) == full, "round \(round) at \(ISODate.format(date))")
            }
        }
    }
}
