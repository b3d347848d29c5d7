import Foundation
import EntitlementBasics
import EntitlementModel

/// Seeded random profiles for the engine's property tests: subscriptions with renewals,
/// upgrades inside a chain, one-time purchases, grants, refunds and renewal info.
package enum ProfileGenerator {
    package static let origin = ISODate.parse("2025-01-01T00:00:00Z")!.timeIntervalSince1970
    package static let products = [UnitTests.Fixture.monthly, UnitTests.Fixture.annual, UnitTests.Fixture.sportsMonthly, UnitTests.Fixture.lifetime, UnitTests.Fixture.coins]

    package static func draw(_ random: inout SplitMix64, _ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    /// An instant in 2025, on whole hours so that ties happen.
    package static func instant(_ random: inout SplitMix64) -> Date {
        Date(timeIntervalSince1970: origin + Double(draw(&random, 365 * 24)) * 3600)
    }

    package static func profile(_ random: inout SplitMix64) -> Profile {
        var profile = UnitTests.Fixture.profile([])
        for chain in 0..<(1 + draw(&random, 3)) {
            var start = instant(&random)
            let original = "s\(chain)"
            let product = products[draw(&random, products.count)]
            for period in 0..<(1 + draw(&random, 4)) {
                let length = Double([7, 30, 365][draw(&random, 3)]) * 86_400
                var transaction = Transaction(transactionID: "\(original)-\(period)", originalTransactionID: original, productID: product,
                                              store: .appStore, type: period == 0 ? .subscriptionStarted : .subscriptionRenewed,
                                              purchasedAt: start, expiresAt: product == UnitTests.Fixture.lifetime ? nil : start.addingTimeInterval(length))
                if draw(&random, 6) == 0 { transaction.revokedAt = start.addingTimeInterval(Double(draw(&random, 40)) * 86_400) }
                if draw(&random, 5) == 0 { transaction.purchasedAt = start.addingTimeInterval(-86_400); transaction.startsAt = start }
                profile.transactions.append(transaction)
                // A renewal starts where the period ends; sometimes an upgrade interrupts it.
                start = draw(&random, 4) == 0 ? start.addingTimeInterval(length / 3) : start.addingTimeInterval(length)
            }
            if draw(&random, 2) == 0 {
                var renewal = RenewalInfo(willRenew: [true, false, nil][draw(&random, 3)])
                if draw(&random, 3) == 0 { renewal.unsubscribedAt = instant(&random); renewal.willRenew = false }
                if draw(&random, 3) == 0 {
                    let detected = instant(&random)
                    renewal.billingIssueDetectedAt = detected
                    renewal.gracePeriodExpiresAt = detected.addingTimeInterval(16 * 86_400)
                    renewal.isInBillingRetry = true
                }
                // A pause (Google Play, Stripe), sometimes without a recorded time or a resume time;
                // chosen from the chain's dates, not drawn, so the other properties' streams are unchanged.
                let hours = Int(start.timeIntervalSince1970 / 3600)
                if hours % 4 == 0 {
                    renewal.isPaused = true
                    if hours % 8 == 0 { renewal.pausedAt = start.addingTimeInterval(-3 * 86_400) }
                    if hours % 3 != 0 { renewal.resumesAt = start.addingTimeInterval(Double(hours % 90) * 86_400) }
                }
                profile.renewalInfo[original] = renewal
            }
        }
        for grant in 0..<draw(&random, 3) {
            let granted = instant(&random)
            var transaction = Transaction(transactionID: "manual-\(grant)", productID: nil, store: .manual, type: .manualGrant, purchasedAt: granted,
                                          startsAt: draw(&random, 2) == 0 ? granted.addingTimeInterval(10 * 86_400) : nil,
                                          expiresAt: draw(&random, 5) == 0 ? nil : granted.addingTimeInterval(40 * 86_400))
            transaction.entitlement = ["premium", "sports"][draw(&random, 2)]
            transaction.grantedAt = granted
            profile.transactions.append(transaction)
        }
        return profile
    }

    /// `profile` plus records all made after `date`: new purchases and grants (also in
    /// existing subscriptions), refunds of unrevoked transactions, and renewal facts dated
    /// after `date` on subscriptions whose earlier state they continue.
    package static func addingRecords(after date: Date, to profile: Profile, _ random: inout SplitMix64) -> Profile {
        var extended = profile
        func later() -> Date { date.addingTimeInterval(Double(1 + draw(&random, 90 * 24)) * 3600) }
        for index in extended.transactions.indices where extended.transactions[index].revokedAt == nil && draw(&random, 4) == 0 {
            extended.transactions[index].revokedAt = later()
            extended.transactions[index].revocationReason = "refunded"
        }
        for extra in 0..<(1 + draw(&random, 3)) {
            let purchased = later()
            let purchases = extended.transactions.filter { !$0.isManualGrant }
            let chain = purchases.isEmpty ? nil : purchases[draw(&random, purchases.count)].originalTransactionID
            if draw(&random, 3) == 0 {
                var grant = Transaction(transactionID: "late-manual-\(extra)", productID: nil, store: .manual, type: .manualGrant,
                                        purchasedAt: purchased, expiresAt: purchased.addingTimeInterval(30 * 86_400))
                grant.entitlement = ["premium", "sports"][draw(&random, 2)]
                grant.grantedAt = purchased
                extended.transactions.append(grant)
            } else {
                // The vendor marks the transaction it replaces as upgraded when the replacement is recorded.
                let joined = draw(&random, 2) == 0 ? chain : nil
                if let joined, draw(&random, 2) == 0,
                   let last = extended.transactions.lastIndex(where: { $0.originalTransactionID == joined && !$0.isManualGrant }) {
                    extended.transactions[last].isUpgraded = true
                }
                extended.transactions.append(Transaction(
                    transactionID: "late-\(extra)", originalTransactionID: joined,
                    productID: products[draw(&random, products.count)], store: .appStore, type: .subscriptionRenewed,
                    purchasedAt: purchased, expiresAt: purchased.addingTimeInterval(30 * 86_400)))
            }
        }
        for (original, renewal) in extended.renewalInfo {
            var changed = renewal
            if renewal.willRenew == true, renewal.unsubscribedAt == nil, draw(&random, 2) == 0 {
                changed.unsubscribedAt = later()
                changed.willRenew = false
            }
            if renewal.billingIssueDetectedAt == nil, renewal.gracePeriodExpiresAt == nil, renewal.isInBillingRetry != true, draw(&random, 2) == 0 {
                let detected = later()
                changed.billingIssueDetectedAt = detected
                changed.gracePeriodExpiresAt = detected.addingTimeInterval(16 * 86_400)
                changed.isInBillingRetry = true
            }
            let hours = Int(date.timeIntervalSince1970 / 3600) + Int(original.utf8.last ?? 0)
            if renewal.isPaused != true, hours % 3 == 0 {
                let paused = date.addingTimeInterval(Double(1 + hours % 200) * 3600)
                changed.isPaused = true
                changed.pausedAt = paused
                changed.resumesAt = paused.addingTimeInterval(30 * 86_400)
            }
            extended.renewalInfo[original] = changed
        }
        return extended
    }
}
