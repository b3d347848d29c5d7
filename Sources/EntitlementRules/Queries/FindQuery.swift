import FoundationEssentials
import EntitlementJSON
import EntitlementModel

/// What `find` looks for: access levels that pass every given filter at one instant.
package struct FindQuery: Equatable, Sendable {
    /// `--attribute KEY=VALUE`: a custom attribute with this value (numbers compare by value).
    package struct Attribute: Equatable, Sendable {
        var key: String
        var value: String

        package init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Only this entitlement; nil: every entitlement of each profile.
    package var entitlement: String?
    /// Only these states; nil: any state.
    package var states: Set<AccessState>?
    /// Only access levels decided by a transaction of this store (`app_store`, `manual` …).
    var storeName: String?
    /// Only access levels decided by a transaction of this product.
    var product: String?
    /// Only access that is active and ends within this span after the evaluation time.
    package var expiringWithin: GrantDuration?
    package var attribute: Attribute?
    package var environment: EnvironmentFilter = .any

    package init(entitlement: String? = nil, states: Set<AccessState>? = nil, storeName: String? = nil, product: String? = nil, expiringWithin: GrantDuration? = nil, attribute: Attribute? = nil, environment: EnvironmentFilter = .any) {
        self.entitlement = entitlement
        self.states = states
        self.storeName = storeName
        self.product = product
        self.expiringWithin = expiringWithin
        self.attribute = attribute
        self.environment = environment
    }

    /// The access levels of `profile` that match, in the engine's entitlement order.
    package func matches(_ profile: Profile, engine: StatusEngine, at date: Date) -> [AccessLevel] {
        if let attribute, !Self.attribute(profile.customAttributes[attribute.key], equals: attribute.value) { return [] }
        let ids = entitlement.map { [$0] } ?? engine.entitlementIDs(for: profile)
        var found: [AccessLevel] = []
        for id in ids {
            let level = engine.evaluate(id, for: profile, at: date).accessLevel
            if matches(level, at: date) { found.append(level) }
        }
        return found
    }

    /// True when one access level passes the level filters.
    func matches(_ level: AccessLevel, at date: Date) -> Bool {
        if let states, !states.contains(level.state) { return false }
        if let storeName, level.store?.rawValue != storeName { return false }
        if let product, level.productID != product { return false }
        if let expiringWithin {
            guard level.state == .active, let end = level.expiresAt, end > date, end <= expiringWithin.added(to: date) else { return false }
        }
        return true
    }

    /// Attribute values are strings or numbers; `42` matches `42.0`, and a string matches exactly.
    static func attribute(_ value: JSONValue?, equals wanted: String) -> Bool {
        switch value {
        case .string(let text)?: return text == wanted
        case .number(let text)?:
            if text == wanted { return true }
            guard let number = Double(text), let other = Double(wanted) else { return false }
            return number == other
        default: return false
        }
    }
}
