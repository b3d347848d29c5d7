import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// What the evaluations of every entitlement of one profile at one instant share: the
/// profile as known then, what was left out, and its supersessions.
///
/// `status` evaluates each entitlement of a profile that can hold 10,000 transactions;
/// computed once here, the as-known profile and the supersessions are not rebuilt per
/// entitlement. The engine stays a pure function of (profile, configuration, time).
package struct EvaluationBasis {
    let fullProfile: Profile
    let date: Date
    /// `fullProfile.asKnown(at: date)`.
    package let profile: Profile
    let ignored: [IgnoredRecord]
    /// `Supersession.all(in: profile)`.
    package let supersessions: [Supersession.Key: Supersession]
    /// The transactions and ignored records by what they unlock, when the basis serves
    /// several entitlements; nil for one, which a single pass serves as well.
    let index: TransactionIndex?

    /// `indexed` builds `index`: worth it when more than one entitlement is evaluated.
    package init(_ fullProfile: Profile, at date: Date, indexed: Bool = false, counter: WorkCounter? = nil) {
        self.fullProfile = fullProfile
        self.date = date
        (profile, ignored) = fullProfile.asKnown(at: date)
        counter.add(fullProfile.transactions.count)
        supersessions = Supersession.all(in: profile, counter: counter)
        index = indexed ? TransactionIndex(known: profile, full: fullProfile, ignored: ignored, counter: counter) : nil
    }

    /// The supersession of a transaction of `profile`, if it was replaced.
    @inline(__always)
    func supersession(of transaction: Transaction) -> Supersession? {
        Supersession.lookup(transaction, in: supersessions)
    }
}

extension Supersession {
    /// `supersessions[key(of: transaction)]`, without hashing when there are none (the usual case).
    @inline(__always)
    package static func lookup(_ transaction: Transaction, in supersessions: [Key: Supersession]) -> Supersession? {
        supersessions.isEmpty ? nil : supersessions[key(of: transaction)]
    }
}
