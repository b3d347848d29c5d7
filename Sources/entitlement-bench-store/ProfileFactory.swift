import Foundation
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The kinds of customer the synthetic store mixes, after the demo fixtures.
/// Weights are percentages of the generated profiles.
enum Archetype: String, CaseIterable, Sendable {
    case activeRenewing = "active_renewing"
    case activeCanceled = "active_canceled"
    case trial
    case intro
    case gracePeriod = "grace_period"
    case billingRetry = "billing_retry"
    case expired
    case refunded
    case lifetime
    case manualGrant = "manual_grant"
    case familySharing = "family_sharing"
    case sandbox
    case multiEntitlement = "multi_entitlement"
    case consumablesOnly = "consumables_only"
    case switchedPlans = "switched_plans"

    var weight: Int {
        switch self {
        case .activeRenewing: return 20
        case .activeCanceled: return 8
        case .trial: return 6
        case .intro: return 4
        case .gracePeriod: return 3
        case .billingRetry: return 3
        case .expired: return 18
        case .refunded: return 4
        case .lifetime: return 4
        case .manualGrant: return 5
        case .familySharing: return 4
        case .sandbox: return 3
        case .multiEntitlement: return 6
        case .consumablesOnly: return 6
        case .switchedPlans: return 6
        }
    }

    static let weights = allCases.map(\.weight)
}

/// How long one period of a subscription lasts.
enum Period {
    case days(Int)
    case months(Int)
    case minutes(Int)

    static let week = Period.days(7)
    static let month = Period.months(1)
    static let year = Period.months(12)

    func advance(_ date: Date, by count: Int) -> Date {
        switch self {
        case .days(let days): return date.addingTimeInterval(Double(days * count * 86_400))
        case .months(let months): return CivilDate.adding(months: months * count, to: date)
        case .minutes(let minutes): return date.addingTimeInterval(Double(minutes * count * 60))
        }
    }

    /// The shortest length of one period, in seconds.
    var minimumSeconds: Int {
        switch self {
        case .days(let days): return days * 86_400
        case .months(let months): return months * 28 * 86_400
        case .minutes(let minutes): return minutes * 60
        }
    }
}

/// A subscription product as sold in one store.
struct Plan {
    var product: String
    var period: Period
    var usdPrice: Double
    var store: Store
    var environment: Environment = .production
    var ownership: OwnershipType = .owner
    /// Family-shared transactions carry no price (the buyer paid).
    var priced = true
}

/// One generated profile and the kind of customer it stands for.
struct GeneratedProfile {
    var profile: Profile
    var archetype: Archetype?
}

/// Builds the profile of index `i` from the seed alone, so generation is
/// deterministic and can be split across threads in any way.
struct ProfileFactory: Sendable {
    let seed: UInt64
    let reference: Date

    static let day = 86_400
    static let hour = 3_600

    func profile(at index: Int) -> GeneratedProfile {
        var rng = SplitMix64(seed: seed, stream: UInt64(index))
        let archetype = Archetype.allCases[rng.weighted(Archetype.weights)]
        let userID = Self.userID(index: index, rng: &rng)
        var builder = Builder(rng: rng, now: reference)
        builder.build(archetype)
        return GeneratedProfile(profile: builder.finish(userID: userID), archetype: archetype)
    }

    /// User ids of the shapes apps really use: device UUIDs, emails, numeric
    /// database ids, Auth0 and Firebase ids. Unique by construction or by 96+ random bits.
    static func userID(index: Int, rng: inout SplitMix64) -> String {
        switch rng.weighted([25, 20, 25, 20, 5, 5]) {
        case 0: return rng.uuid().uppercased()
        case 1: return rng.uuid()
        case 2:
            let first = rng.pick(Catalog.firstNames), last = rng.pick(Catalog.lastNames), domain = rng.pick(Catalog.domains)
            switch rng.int(4) {
            case 0: return "\(first).\(last)\(index)@\(domain)"
            case 1: return "\(first)\(index)@\(domain)"
            case 2: return "\(first).\(last)+app\(index)@\(domain)"
            default: return "\(first.prefix(1))\(last).\(index)@\(domain)"
            }
        case 3: return String(10_000_000 + index * 37 + rng.int(37))
        case 4: return "auth0|\(rng.hex(24))"
        default: return rng.alphanumeric(28)
        }
    }

    /// A QA or power-user account with `count` transactions: accelerated sandbox
    /// renewals (Apple renews a sandbox month every 5 minutes, 12 times a day),
    /// years of production renewals, thousands of consumables, support grants.
    func heavyProfile(userID: String, transactions count: Int) -> Profile {
        var builder = Builder(rng: SplitMix64(seed: seed, stream: 0xFFFF_FFFF_0000_0001), now: reference)
        let store = Plan(product: Catalog.premiumMonthly, period: .month, usdPrice: 9.99, store: .appStore)
        // Production: a 36-month chain that lapsed, then a 24-month chain still renewing.
        let firstEnd = Builder.anchor(reference.addingTimeInterval(-Double(400 * Self.day)))
        builder.chain(store, builder.regular(.month, lastExpiry: firstEnd, count: min(36, count)))
        builder.renewal(builder.lastOriginal, willRenew: false, unsubscribedAt: firstEnd.addingTimeInterval(-Double(5 * Self.day)))
        var remaining = count - builder.transactions.count
        let second = min(24, remaining)
        if second > 0 {
            builder.chain(store, builder.regular(.month, lastExpiry: Builder.anchor(reference.addingTimeInterval(Double(9 * Self.day))), count: second))
            builder.renewal(builder.lastOriginal, willRenew: true)
        }
        // Sports: three years of weekly renewals.
        remaining = count - builder.transactions.count
        let weekly = min(156, remaining)
        if weekly > 0 {
            let plan = Plan(product: Catalog.sportsMonthly, period: .week, usdPrice: 1.99, store: .playStore)
            builder.chain(plan, builder.regular(.week, lastExpiry: reference.addingTimeInterval(Double(3 * Self.day)), count: weekly))
            builder.renewal(builder.lastOriginal, willRenew: true)
        }
        // Support grants over the years.
        remaining = count - builder.transactions.count
        for _ in 0..<min(40, remaining) { builder.manualGrant(variant: builder.rng.int(3)) }
        // Sandbox: chains of 12 accelerated renewals, about 36% of the profile.
        remaining = count - builder.transactions.count
        var sandbox = min(remaining, count * 36 / 100)
        while sandbox > 0 {
            let length = min(12, sandbox)
            let start = reference.addingTimeInterval(-Double(builder.rng.int(in: 2 * Self.day...700 * Self.day)))
            let plan = Plan(product: Catalog.premiumMonthly, period: .minutes(5), usdPrice: 9.99, store: .appStore, environment: .sandbox)
            let periods = (0..<length).map { (Period.minutes(5).advance(start, by: $0), Period.minutes(5).advance(start, by: $0 + 1)) }
            builder.chain(plan, periods)
            builder.renewal(builder.lastOriginal, willRenew: false, unsubscribedAt: periods[length - 1].1)
            sandbox -= length
        }
        // Consumables fill the rest, a few hours apart over three years; a few refunded.
        remaining = count - builder.transactions.count
        for _ in 0..<remaining {
            let when = reference.addingTimeInterval(-Double(builder.rng.int(in: Self.hour...1_100 * Self.day)))
            builder.consumable(at: when, refundChance: 0.01)
        }
        var profile = builder.finish(userID: userID)
        profile.customAttributes = JSONObject([("country", .string("US")), ("tester", .string("qa-team")), ("sessions", .int(48_213))])
        return profile
    }
}

/// Accumulates one profile's transactions and renewal info.
struct Builder {
    var rng: SplitMix64
    let now: Date
    var transactions: [Transaction] = []
    var renewals: [String: RenewalInfo] = [:]
    var lastOriginal = ""
    let currency: String
    let store: Store

    static let day = ProfileFactory.day
    static let hour = ProfileFactory.hour

    init(rng: SplitMix64, now: Date) {
        self.rng = rng
        self.now = now
        currency = self.rng.pick(Catalog.currencies)
        store = [Store.appStore, .playStore, .stripe][self.rng.weighted([70, 25, 5])]
    }

    // MARK: Time

    /// `now` moved by a random number of seconds in `range`.
    mutating func at(_ range: ClosedRange<Int>) -> Date { now.addingTimeInterval(Double(rng.int(in: range))) }

    /// The same instant moved back to day 28 or earlier, so month arithmetic never clamps.
    static func anchor(_ date: Date) -> Date {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let civil = CivilDate.civilFromDays(days)
        return civil.day > 28 ? date.addingTimeInterval(-Double((civil.day - 28) * day)) : date
    }

    /// `count` back-to-back periods ending at `lastExpiry`.
    func regular(_ period: Period, lastExpiry: Date, count: Int) -> [(Date, Date)] {
        let end = Self.anchor(lastExpiry)
        let first = period.advance(end, by: -count)
        return (0..<count).map { (period.advance(first, by: $0), period.advance(first, by: $0 + 1)) }
    }

    // MARK: Transactions

    func makePlan(_ product: String, _ period: Period, _ usd: Double) -> Plan {
        Plan(product: product, period: period, usdPrice: usd, store: store)
    }

    mutating func storeTransactionID(_ store: Store, purchasedAt: Date) -> String {
        let seconds = Int(purchasedAt.timeIntervalSince1970) - 1_577_836_800
        return String(2_000_000_000_000_000 + max(seconds, 0) * 10 + rng.int(10))
    }

    /// Appends one subscription chain; `types` names each period's transaction type.
    mutating func chain(_ plan: Plan, _ periods: [(Date, Date)], types: (Int) -> TransactionType = { $0 == 0 ? .subscriptionStarted : .subscriptionRenewed },
                        usdPrice: ((Int) -> Double)? = nil, offerCode: String? = nil) {
        guard !periods.isEmpty else { return }
        var original = ""
        var stripeSubscription = ""
        switch plan.store {
        case .playStore: original = "GPA.33\(rng.digits(2))-\(rng.digits(4))-\(rng.digits(4))-\(rng.digits(5))"
        case .stripe: stripeSubscription = "sub_" + rng.alphanumeric(24)
        default: break
        }
        for (index, period) in periods.enumerated() {
            let id: String
            switch plan.store {
            case .playStore: id = index == 0 ? original : "\(original)..\(index - 1)"
            case .stripe:
                id = "in_" + rng.alphanumeric(24)
                original = stripeSubscription
            default:
                id = storeTransactionID(plan.store, purchasedAt: period.0)
                if index == 0 { original = id }
            }
            var transaction = Transaction(
                transactionID: id, originalTransactionID: original, productID: plan.product, store: plan.store,
                type: types(index), purchasedAt: period.0, expiresAt: period.1,
                environment: plan.environment, ownershipType: plan.ownership)
            transaction.raw = Self.storeRaw(original: original, environment: plan.environment, ownership: plan.ownership)
            if plan.priced {
                transaction.price = Catalog.price(usdPrice?(index) ?? plan.usdPrice, in: currency)
                transaction.currency = currency
            }
            if index == 0, let offerCode { transaction.offerCode = offerCode }
            transactions.append(transaction)
        }
        lastOriginal = original
    }

    /// Fields the vendors always send, kept explicit as in the demo fixtures.
    static func storeRaw(original: String, environment: Environment, ownership: OwnershipType, neverExpires: Bool = false) -> JSONObject {
        var raw = JSONObject([
            ("original_transaction_id", .string(original)),
            ("environment", .string(environment.rawValue)),
            ("ownership_type", .string(ownership.rawValue)),
        ])
        if neverExpires { raw["expires_at"] = .null }
        return raw
    }

    mutating func renewal(_ original: String, willRenew: Bool, unsubscribedAt: Date? = nil, billingIssue: Date? = nil,
                          grace: Date? = nil, retry: Bool = false) {
        var info = RenewalInfo(willRenew: willRenew, unsubscribedAt: unsubscribedAt, billingIssueDetectedAt: billingIssue,
                               gracePeriodExpiresAt: grace, isInBillingRetry: retry)
        info.raw = JSONObject([
            ("unsubscribed_at", .null), ("billing_issue_detected_at", .null), ("grace_period_expires_at", .null),
        ])
        renewals[original] = info
    }

    mutating func oneTime(_ product: String, type: TransactionType, at date: Date, usd: Double) {
        let store = self.store == .stripe ? Store.appStore : self.store
        let id = store == .playStore ? "GPA.33\(rng.digits(2))-\(rng.digits(4))-\(rng.digits(4))-\(rng.digits(5))" : storeTransactionID(store, purchasedAt: date)
        var transaction = Transaction(transactionID: id, productID: product, store: store, type: type, purchasedAt: date, expiresAt: nil)
        transaction.raw = Self.storeRaw(original: id, environment: .production, ownership: .owner, neverExpires: type == .nonConsumablePurchase)
        transaction.price = Catalog.price(usd, in: currency)
        transaction.currency = currency
        transactions.append(transaction)
    }

    mutating func consumable(at date: Date, refundChance: Double = 0.03) {
        let which = rng.weighted([40, 30, 20, 10])
        oneTime(Catalog.consumables[which], type: .consumablePurchase, at: date, usd: Catalog.consumablePrices[which])
        if rng.chance(refundChance) {
            transactions[transactions.count - 1].revokedAt = date.addingTimeInterval(Double(rng.int(in: Self.hour...5 * Self.day)))
            transactions[transactions.count - 1].revocationReason = "refunded"
        }
    }

    /// 0 active, 1 expired, 2 scheduled, 3 lifetime.
    mutating func manualGrant(variant: Int) {
        let purchased: Date, starts: Date?, expires: Date?
        switch variant {
        case 0:
            purchased = at(-25 * Self.day...(-Self.hour))
            starts = nil
            expires = CivilDate.adding(months: 1, to: purchased)
        case 1:
            purchased = at(-700 * Self.day...(-40 * Self.day))
            starts = nil
            expires = purchased.addingTimeInterval(Double(rng.pick([7, 14, 30]) * Self.day))
        case 2:
            purchased = at(-3 * Self.day...(-Self.hour))
            starts = at(Self.day...20 * Self.day)
            expires = CivilDate.adding(months: 1, to: starts!)
        default:
            purchased = at(-900 * Self.day...(-Self.day))
            starts = nil
            expires = nil
        }
        var grant = Transaction(transactionID: "manual-" + rng.uuid(), productID: nil, store: .manual, type: .manualGrant,
                                purchasedAt: purchased, startsAt: starts, expiresAt: expires)
        grant.entitlement = rng.chance(0.8) ? "premium" : "sports"
        grant.grantedAt = purchased
        grant.grantedBy = rng.pick(Catalog.supportAgents)
        grant.reason = rng.pick(Catalog.grantReasons)
        if rng.chance(0.3) { grant.idempotencyKey = "INC-\(rng.int(in: 10...999))-\(rng.hex(6))" }
        if expires == nil { grant.raw = JSONObject([("expires_at", .null)]) }
        transactions.append(grant)
    }

    // MARK: Archetypes

    mutating func subscriptionPlan(weekly: Int = 15) -> (Plan, Int) {
        switch rng.weighted([60, 25, weekly]) {
        case 0: return (makePlan(Catalog.premiumMonthly, .month, 9.99), rng.skewed(30))
        case 1: return (makePlan(Catalog.premiumAnnual, .year, 49.99), rng.int(in: 1...3))
        default: return (makePlan(Catalog.premiumWeekly, .week, 2.99), rng.skewed(30))
        }
    }

    mutating func build(_ archetype: Archetype) {
        switch archetype {
        case .activeRenewing, .activeCanceled:
            let (plan, count) = subscriptionPlan()
            let lastExpiry = at(Self.hour...(plan.period.minimumSeconds - Self.hour))
            let code = rng.chance(0.1) ? rng.pick(Catalog.offerCodes) : nil
            chain(plan, regular(plan.period, lastExpiry: lastExpiry, count: count), offerCode: code)
            if archetype == .activeRenewing {
                renewal(lastOriginal, willRenew: true)
            } else {
                let lastPurchase = transactions[transactions.count - 1].purchasedAt
                let window = max(60, Int(now.timeIntervalSince(lastPurchase)) - 60)
                renewal(lastOriginal, willRenew: false, unsubscribedAt: lastPurchase.addingTimeInterval(Double(rng.int(in: 60...window))))
            }
        case .trial:
            let plan = makePlan(Catalog.premiumMonthly, .month, 9.99)
            let types: (Int) -> TransactionType = { $0 == 0 ? .trialStarted : .subscriptionRenewed }
            let prices: (Int) -> Double = { $0 == 0 ? 0 : 9.99 }
            switch rng.weighted([50, 25, 25]) {
            case 0:  // in the trial now
                let start = at(-6 * Self.day...(-Self.hour))
                chain(plan, [(start, start.addingTimeInterval(Double(7 * Self.day)))], types: types, usdPrice: prices)
                if rng.chance(0.3) {
                    renewal(lastOriginal, willRenew: false, unsubscribedAt: start.addingTimeInterval(Double(rng.int(in: 600...Int(now.timeIntervalSince(start))))))
                } else {
                    renewal(lastOriginal, willRenew: true)
                }
            case 1:  // trial that did not convert
                let start = at(-400 * Self.day...(-8 * Self.day))
                chain(plan, [(start, start.addingTimeInterval(Double(7 * Self.day)))], types: types, usdPrice: prices)
                renewal(lastOriginal, willRenew: false, unsubscribedAt: start.addingTimeInterval(Double(rng.int(in: 600...6 * Self.day))))
            default:  // converted, still renewing
                var periods = regular(.month, lastExpiry: at(Self.hour...27 * Self.day), count: rng.skewed(29))
                let first = periods[0].0
                periods.insert((first.addingTimeInterval(-Double(7 * Self.day)), first), at: 0)
                chain(plan, periods, types: types, usdPrice: prices)
                renewal(lastOriginal, willRenew: true)
            }
        case .intro:
            let introCount = rng.int(in: 1...3)
            let count = introCount + rng.skewed(20) - 1
            let active = rng.chance(0.8)
            let lastExpiry = active ? at(Self.hour...27 * Self.day) : at(-300 * Self.day...(-Self.day))
            chain(makePlan(Catalog.premiumMonthly, .month, 9.99), regular(.month, lastExpiry: lastExpiry, count: count),
                  types: { $0 == 0 ? .introStarted : $0 < introCount ? .introRenewed : .subscriptionRenewed },
                  usdPrice: { $0 < introCount ? 1.99 : 9.99 })
            if active {
                renewal(lastOriginal, willRenew: true)
            } else {
                renewal(lastOriginal, willRenew: false, unsubscribedAt: lastExpiry.addingTimeInterval(-Double(rng.int(in: Self.hour...20 * Self.day))))
            }
        case .gracePeriod, .billingRetry:
            let (plan, count) = rng.chance(0.8) ? (makePlan(Catalog.premiumMonthly, .month, 9.99), rng.skewed(30)) : (makePlan(Catalog.premiumAnnual, .year, 49.99), rng.int(in: 1...3))
            let lastExpiry = archetype == .gracePeriod ? at(-10 * Self.day...(-Self.hour)) : at(-55 * Self.day...(-20 * Self.day))
            chain(plan, regular(plan.period, lastExpiry: lastExpiry, count: count))
            let end = transactions[transactions.count - 1].expiresAt!
            renewal(lastOriginal, willRenew: true, billingIssue: end.addingTimeInterval(Double(rng.int(in: 5...120))),
                    grace: end.addingTimeInterval(Double(16 * Self.day)), retry: archetype == .billingRetry)
        case .expired:
            let (plan, count) = subscriptionPlan()
            chain(plan, regular(plan.period, lastExpiry: at(-700 * Self.day...(-Self.day)), count: count))
            let last = transactions[transactions.count - 1]
            if rng.chance(0.15) {  // lapsed after the billing retry gave up
                renewal(lastOriginal, willRenew: false, billingIssue: last.expiresAt!.addingTimeInterval(30))
            } else {
                let window = max(60, Int(last.expiresAt!.timeIntervalSince(last.purchasedAt)) - 60)
                renewal(lastOriginal, willRenew: false, unsubscribedAt: last.purchasedAt.addingTimeInterval(Double(rng.int(in: 60...window))))
            }
        case .refunded:
            let (plan, count) = rng.chance(0.75) ? (makePlan(Catalog.premiumMonthly, .month, 9.99), rng.skewed(20)) : (makePlan(Catalog.premiumAnnual, .year, 49.99), rng.int(in: 1...2))
            chain(plan, regular(plan.period, lastExpiry: at(Self.day...(plan.period.minimumSeconds - Self.day)), count: count))
            let index = transactions.count - 1
            let purchased = transactions[index].purchasedAt
            let revoked = purchased.addingTimeInterval(Double(rng.int(in: Self.hour...max(Self.hour, min(14 * Self.day, Int(now.timeIntervalSince(purchased)) - 60)))))
            transactions[index].revokedAt = revoked
            transactions[index].revocationReason = rng.chance(0.9) ? "refunded" : "other"
            renewal(lastOriginal, willRenew: false, unsubscribedAt: revoked)
        case .lifetime:
            if rng.chance(0.3) {
                chain(makePlan(Catalog.premiumMonthly, .month, 9.99), regular(.month, lastExpiry: at(-1_000 * Self.day...(-400 * Self.day)), count: rng.skewed(12)))
                renewal(lastOriginal, willRenew: false, unsubscribedAt: transactions[transactions.count - 1].purchasedAt.addingTimeInterval(Double(Self.day)))
            }
            let bought = at(-390 * Self.day...(-Self.day))
            oneTime(Catalog.lifetime, type: .nonConsumablePurchase, at: bought, usd: 99.99)
            for _ in 0..<(rng.skewed(12) - 1) {
                consumable(at: bought.addingTimeInterval(Double(rng.int(in: Self.hour...Int(now.timeIntervalSince(bought))))))
            }
        case .manualGrant:
            for _ in 0..<rng.skewed(3) { manualGrant(variant: rng.weighted([45, 30, 15, 10])) }
            if rng.chance(0.4) {
                let (plan, count) = subscriptionPlan()
                chain(plan, regular(plan.period, lastExpiry: at(-500 * Self.day...(-Self.day)), count: min(count, 20)))
                renewal(lastOriginal, willRenew: false, unsubscribedAt: transactions[transactions.count - 1].purchasedAt.addingTimeInterval(Double(Self.day)))
            }
        case .familySharing:
            var plan = makePlan(Catalog.premiumMonthly, .month, 9.99)
            plan.store = .appStore
            plan.ownership = .familySharing
            plan.priced = false
            let active = rng.chance(0.7)
            chain(plan, regular(.month, lastExpiry: active ? at(Self.hour...27 * Self.day) : at(-300 * Self.day...(-Self.day)), count: rng.skewed(24)))
            renewal(lastOriginal, willRenew: active)
        case .sandbox:
            var plan = makePlan(Catalog.premiumWeekly, .week, 2.99)
            plan.store = .appStore
            plan.environment = .sandbox
            let active = rng.chance(0.5)
            chain(plan, regular(.week, lastExpiry: active ? at(Self.hour...6 * Self.day) : at(-90 * Self.day...(-Self.hour)), count: rng.skewed(30)))
            renewal(lastOriginal, willRenew: active)
        case .multiEntitlement:
            var science = makePlan(Catalog.scienceYearly, .year, 29.99)
            science.store = .stripe
            chain(science, regular(.year, lastExpiry: at(-200 * Self.day...200 * Self.day), count: rng.int(in: 1...2)))
            renewal(lastOriginal, willRenew: rng.chance(0.6))
            let sportsActive = rng.chance(0.5)
            chain(makePlan(Catalog.sportsMonthly, .month, 4.99),
                  regular(.month, lastExpiry: sportsActive ? at(Self.hour...27 * Self.day) : at(-200 * Self.day...(-Self.day)), count: rng.skewed(12)))
            renewal(lastOriginal, willRenew: sportsActive)
            chain(makePlan(Catalog.premiumMonthly, .month, 9.99), regular(.month, lastExpiry: at(Self.hour...27 * Self.day), count: rng.skewed(12)))
            renewal(lastOriginal, willRenew: true)
        case .consumablesOnly:
            for _ in 0..<rng.skewed(30) { consumable(at: at(-400 * Self.day...(-60))) }
        case .switchedPlans:
            let switchedAt = Self.anchor(at(-300 * Self.day...(-10 * Self.day)))
            chain(makePlan(Catalog.premiumMonthly, .month, 9.99), regular(.month, lastExpiry: switchedAt, count: rng.skewed(18)))
            renewal(lastOriginal, willRenew: false, unsubscribedAt: switchedAt.addingTimeInterval(-Double(rng.int(in: Self.hour...5 * Self.day))))
            let years = CivilDate.adding(months: 12, to: switchedAt) > now ? 1 : 2
            chain(makePlan(Catalog.premiumAnnual, .year, 49.99), regular(.year, lastExpiry: CivilDate.adding(months: 12 * years, to: switchedAt), count: years))
            renewal(lastOriginal, willRenew: true)
        }
    }

    /// The profile: transactions in the order they happened, as a store appends them.
    mutating func finish(userID: String) -> Profile {
        let ordered = transactions.enumerated().sorted { a, b in
            a.element.purchasedAt != b.element.purchasedAt ? a.element.purchasedAt < b.element.purchasedAt : a.offset < b.offset
        }.map(\.element)
        let firstPurchase = ordered.first?.purchasedAt ?? now.addingTimeInterval(-Double(Self.day))
        let created = firstPurchase.addingTimeInterval(-Double(rng.int(in: 60...30 * Self.day)))
        var profile = Profile(profileID: rng.uuid(), customerUserID: userID, createdAt: created)
        profile.transactions = ordered
        profile.renewalInfo = renewals
        var attributes: [(String, JSONValue)] = []
        if rng.chance(0.9) { attributes.append(("country", .string(rng.pick(Catalog.countries)))) }
        if rng.chance(0.4) { attributes.append(("app_version", .string(rng.pick(Catalog.appVersions)))) }
        if rng.chance(0.3) { attributes.append(("sessions", .int(rng.int(in: 1...500)))) }
        if rng.chance(0.2) { attributes.append(("age", .int(rng.int(in: 16...70)))) }
        if rng.chance(0.15) { attributes.append(("acquisition_channel", .string(rng.pick(Catalog.channels)))) }
        if rng.chance(0.1) { attributes.append(("paywall", .string(rng.pick(Catalog.paywalls)))) }
        if rng.chance(0.1) { attributes.append(("locale", .string(rng.pick(Catalog.locales)))) }
        profile.customAttributes = JSONObject(attributes)
        return profile
    }
}
