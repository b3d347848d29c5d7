import Foundation
import EntitlementModel

/// The "long chain" benchmark profile: one subscription renewed `count`
/// times, in Apple's accelerated sandbox periods of five minutes (a QA account), ending
/// so that the reference date falls inside its last period.
///
/// `middle` is the middle of period `count / 2`: evaluated there, half the chain was
/// recorded after the evaluation time, the case that was quadratic.
struct LongChain {
    let profile: Profile
    let middle: Date
    let end: Date

    static let period = 300.0

    init(userID: String, count: Int, factory: ProfileFactory) {
        var builder = Builder(rng: SplitMix64(seed: factory.seed, stream: 0xFFFF_FFFF_0000_0002), now: factory.reference)
        let start = factory.reference.addingTimeInterval(-Double(count - 1) * Self.period - Self.period / 2)
        let plan = Plan(product: Catalog.premiumMonthly, period: .minutes(5), usdPrice: 9.99, store: .appStore, environment: .sandbox)
        builder.chain(plan, (0..<count).map { (start.addingTimeInterval(Double($0) * Self.period), start.addingTimeInterval(Double($0 + 1) * Self.period)) })
        builder.renewal(builder.lastOriginal, willRenew: true)
        profile = builder.finish(userID: userID)
        middle = start.addingTimeInterval(Double(count / 2) * Self.period + Self.period / 2)
        end = factory.reference
    }
}
