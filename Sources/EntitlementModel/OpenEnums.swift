import EntitlementJSON

/// A string-backed value from an open set: known values have names, and any
/// other value read from a file or a vendor is kept as written.
///
/// Each conforming type states `description` (its raw value) itself, `@usableFromInline`:
/// Transaction's inlinable getters return these types, and a witness from a protocol
/// extension could not be marked so.
protocol OpenEnum: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

/// Where a transaction was made: `app_store`, `play_store`, `stripe`, `manual`, or any other store.
@usableFromInline
package struct Store: OpenEnum {
    @usableFromInline package var description: String { rawValue }
    @usableFromInline package let rawValue: String
    @usableFromInline package init(rawValue: String) { self.rawValue = rawValue }

    package static let appStore = Store(rawValue: "app_store")
    package static let playStore = Store(rawValue: "play_store")
    package static let stripe = Store(rawValue: "stripe")
    package static let manual = Store(rawValue: "manual")
}

/// What kind of purchase or grant a transaction is.
@usableFromInline
package struct TransactionType: OpenEnum {
    @usableFromInline package var description: String { rawValue }
    @usableFromInline package let rawValue: String
    /// The documented type this is, or `.other`: found once, from the name's bytes, because
    /// the engine and the renderers ask several times per transaction.
    @usableFromInline let kind: Kind

    @usableFromInline package init(rawValue: String) {
        self.rawValue = rawValue
        kind = Kind(rawValue)
    }

    /// A documented type, named by its kind's one spelling.
    private init(_ kind: Kind) {
        rawValue = kind.name.description
        self.kind = kind
    }

    package static let subscriptionStarted = TransactionType(.subscriptionStarted)
    package static let subscriptionRenewed = TransactionType(.subscriptionRenewed)
    package static let trialStarted = TransactionType(.trialStarted)
    package static let introStarted = TransactionType(.introStarted)
    package static let introRenewed = TransactionType(.introRenewed)
    package static let nonConsumablePurchase = TransactionType(.nonConsumablePurchase)
    package static let consumablePurchase = TransactionType(.consumablePurchase)
    @usableFromInline package static let manualGrant = TransactionType(.manualGrant)

    /// The documented values, in documentation order.
    package static let known: [TransactionType] = Kind.documented.map(TransactionType.init)

    /// True for the types that renew: subscriptions, trials and intro offers.
    @inlinable package var isSubscription: Bool { kind.rawValue <= Kind.introRenewed.rawValue }

    /// True for one of the documented types (`known`).
    @inlinable package var isKnown: Bool { kind != .other }

    /// `self == type`. For a documented `type` it is answered from the kinds alone: those
    /// names are ASCII letters and underscores, which no other spelling is canonically
    /// equivalent to. (Before kinds, an undocumented `type` of another byte length was never
    /// equal here, though `==` could find it so: `"K"` and `"\u{212A}"`, KELVIN SIGN.)
    @inlinable
    package func `is`(_ type: TransactionType) -> Bool {
        type.kind == .other ? self == type : kind == type.kind
    }

    /// Equal names, as `String`s compare (the kind follows from the name).
    @usableFromInline
    package static func == (lhs: TransactionType, rhs: TransactionType) -> Bool { lhs.rawValue == rhs.rawValue }
    @usableFromInline
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The documented types in documentation order, the renewing ones first (`isSubscription`).
    @usableFromInline enum Kind: UInt8, CaseIterable, Sendable {
        case subscriptionStarted, subscriptionRenewed, trialStarted, introStarted, introRenewed
        case nonConsumablePurchase, consumablePurchase, manualGrant, other

        static let documented = allCases.filter { $0 != .other }

        /// The documented spelling; empty for `.other`, which has none of its own.
        var name: StaticString {
            switch self {
            case .subscriptionStarted: "subscription_started"
            case .subscriptionRenewed: "subscription_renewed"
            case .trialStarted: "trial_started"
            case .introStarted: "intro_started"
            case .introRenewed: "intro_renewed"
            case .nonConsumablePurchase: "non_consumable_purchase"
            case .consumablePurchase: "consumable_purchase"
            case .manualGrant: "manual_grant"
            case .other: ""
            }
        }

        /// The documented kind whose name has exactly these bytes, else `.other`.
        init(_ name: String) {
            var name = name
            self = name.withUTF8 { bytes in
                for kind in Self.documented where kind.name.utf8CodeUnitCount == bytes.count
                    && ShortBytes.equal(bytes.baseAddress!, kind.name.utf8Start, count: bytes.count) {
                    return kind
                }
                return .other
            }
        }
    }
}

/// `production` or `sandbox` (or a vendor's other value, kept).
@usableFromInline
package struct Environment: OpenEnum {
    @usableFromInline package var description: String { rawValue }
    @usableFromInline package let rawValue: String
    @usableFromInline package init(rawValue: String) { self.rawValue = rawValue }

    package static let production = Environment(rawValue: "production")
    package static let sandbox = Environment(rawValue: "sandbox")
}

/// `owner` or `family_sharing` (Apple's in-app ownership type).
@usableFromInline
package struct OwnershipType: OpenEnum {
    @usableFromInline package var description: String { rawValue }
    @usableFromInline package let rawValue: String
    @usableFromInline package init(rawValue: String) { self.rawValue = rawValue }

    package static let owner = OwnershipType(rawValue: "owner")
    package static let familySharing = OwnershipType(rawValue: "family_sharing")
}
