import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// Counts per entitlement over a whole store at one instant: what `summary` shows.
package struct StoreSummary: Equatable, Sendable {
    /// One entitlement's counts.
    package struct Counts: Equatable, Sendable {
        /// Customers per state, `never` excluded (it is derived: profiles minus the rest).
        var states: [AccessState: Int] = [:]
        /// Active access whose end falls within 7 (30) days after the evaluation time.
        package var expiringIn7Days = 0
        package var expiringIn30Days = 0
        /// Customers per store (of the deciding transaction) and state.
        package var stores: [String: [AccessState: Int]] = [:]

        package init(states: [AccessState: Int] = [:], stores: [String: [AccessState: Int]] = [:]) {
            self.states = states
            self.stores = stores
        }

        mutating func add(_ level: AccessLevel, at date: Date, week: Date, month: Date) {
            states[level.state, default: 0] += 1
            if level.state == .active, let end = level.expiresAt, end > date {
                if end <= week { expiringIn7Days += 1 }
                if end <= month { expiringIn30Days += 1 }
            }
            stores[level.store?.rawValue ?? "unknown", default: [:]][level.state, default: 0] += 1
        }

        mutating func merge(_ other: Counts) {
            states.merge(other.states, uniquingKeysWith: +)
            expiringIn7Days += other.expiringIn7Days
            expiringIn30Days += other.expiringIn30Days
            stores.merge(other.stores) { $0.merging($1, uniquingKeysWith: +) }
        }
    }

    /// Profiles read.
    package var profiles = 0
    /// Files that could not be read (reported separately).
    package var unreadable = 0
    package var counts: [String: Counts] = [:]
    /// Entitlements named only by manual grants, in order of discovery.
    var unconfigured: [String] = []

    package init(counts: [String: Counts] = [:], unconfigured: [String] = []) {
        self.counts = counts
        self.unconfigured = unconfigured
    }

    /// Adds one profile's access levels at `date`.
    package mutating func add(_ profile: Profile, engine: StatusEngine, at date: Date) {
        profiles += 1
        let week = date.addingTimeInterval(7 * 86_400), month = date.addingTimeInterval(30 * 86_400)
        for id in engine.entitlementIDs(for: profile) {
            let level = engine.evaluate(id, for: profile, at: date).accessLevel
            guard level.state != .never else { continue }
            if engine.configuration.entitlement(id) == nil, counts[id] == nil { unconfigured.append(id) }
            // Updated in place: a copy of the entry would copy its dictionaries for every profile.
            counts[id, default: Counts()].add(level, at: date, week: week, month: month)
        }
    }

    package mutating func merge(_ other: StoreSummary) {
        profiles += other.profiles
        unreadable += other.unreadable
        for id in other.unconfigured where counts[id] == nil && !unconfigured.contains(id) { unconfigured.append(id) }
        counts.merge(other.counts) { var a = $0; a.merge($1); return a }
    }

    /// The entitlements to show: configured ones in file order, then the others.
    package func entitlementIDs(configuration: ProductConfiguration) -> [String] {
        configuration.entitlementIDs + unconfigured.filter { configuration.entitlement($0) == nil }
    }

    /// Customers of `id` in `state`; `never` is every profile without another state.
    package func count(_ id: String, _ state: AccessState) -> Int {
        let entry = counts[id] ?? Counts()
        if state == .never { return profiles - entry.states.values.reduce(0, +) }
        return entry.states[state] ?? 0
    }

    /// Grace period plus billing retry.
    package func billingTrouble(_ id: String) -> Int { count(id, .gracePeriod) + count(id, .billingRetry) }
}
