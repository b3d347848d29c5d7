/// A string-backed value from an open set: known values have names, and any
/// other value read from a file or a vendor is kept as written.
public protocol OpenEnum: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

extension OpenEnum {
    public var description: String { rawValue }
}

/// Where a transaction was made: `app_store`, `play_store`, `stripe`, `manual`, or any other store.
public struct Store: OpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let appStore = Store(rawValue: "app_store")
    public static let playStore = Store(rawValue: "play_store")
    public static let stripe = Store(rawValue: "stripe")
    public static let manual = Store(rawValue: "manual")
}

/// What kind of purchase or grant a transaction is.
public struct TransactionType: OpenEnum {
    public let rawValue: String
    /// The documented type this is, or `.other`: found once, from the name's bytes, because
    /// the engine and the renderers ask several times per transaction.
    private let kind: Kind

    public init(rawValue: String) {
        self.rawValue = rawValue
        kind = Kind(rawValue)
    }

    public static let subscriptionStarted = TransactionType(rawValue: "subscription_started")
    public static let subscriptionRenewed = TransactionType(rawValue: "subscription_renewed")
    public static let trialStarted = TransactionType(rawValue: "trial_started")
    public static let introStarted = TransactionType(rawValue: "intro_started")
    public static let introRenewed = TransactionType(rawValue: "intro_renewed")
    public static let nonConsumablePurchase = TransactionType(rawValue: "non_consumable_purchase")
    public static let consumablePurchase = TransactionType(rawValue: "consumable_purchase")
    public static let manualGrant = TransactionType(rawValue: "manual_grant")

    /// The documented values, in documentation order.
    public static let known: [TransactionType] = [
        .subscriptionStarted, .subscriptionRenewed, .trialStarted, .introStarted, .introRenewed,
        .nonConsumablePurchase, .consumablePurchase, .manualGrant,
    ]

    /// True for the types that renew: subscriptions, trials and intro offers.
    public var isSubscription: Bool { kind.rawValue <= Kind.introRenewed.rawValue }

    /// True for one of the documented types (`known`).
    public var isKnown: Bool { kind != .other }

    /// `self == type`. For a documented `type` it is answered from the kinds alone: those
    /// names are ASCII letters and underscores, which no other spelling is canonically
    /// equivalent to. (Before kinds, an undocumented `type` of another byte length was never
    /// equal here, though `==` could find it so: `"K"` and `"\u{212A}"`, KELVIN SIGN.)
    @inline(__always)
    public func `is`(_ type: TransactionType) -> Bool {
        type.kind == .other ? self == type : kind == type.kind
    }

    /// Equal names, as `String`s compare (the kind follows from the name).
    public static func == (lhs: TransactionType, rhs: TransactionType) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The documented types, the renewing ones first (`isSubscription`).
    private enum Kind: UInt8 {
        case subscriptionStarted, subscriptionRenewed, trialStarted, introStarted, introRenewed
        case nonConsumablePurchase, consumablePurchase, manualGrant, other

        private static let names: [(StaticString, Kind)] = [
            ("subscription_started", .subscriptionStarted), ("subscription_renewed", .subscriptionRenewed),
            ("trial_started", .trialStarted), ("intro_started", .introStarted), ("intro_renewed", .introRenewed),
            ("non_consumable_purchase", .nonConsumablePurchase), ("consumable_purchase", .consumablePurchase),
            ("manual_grant", .manualGrant),
        ]

        /// The kind whose name has exactly these bytes.
        init(_ name: String) {
            var name = name
            self = name.withUTF8 { bytes in
                for (known, kind) in Self.names where known.utf8CodeUnitCount == bytes.count
                    && ShortBytes.equal(bytes.baseAddress!, known.utf8Start, count: bytes.count) {
                    return kind
                }
                return .other
            }
        }
    }
}

/// `production` or `sandbox` (or a vendor's other value, kept).
public struct Environment: OpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let production = Environment(rawValue: "production")
    public static let sandbox = Environment(rawValue: "sandbox")
}

/// `owner` or `family_sharing` (Apple's in-app ownership type).
public struct OwnershipType: OpenEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let owner = OwnershipType(rawValue: "owner")
    public static let familySharing = OwnershipType(rawValue: "family_sharing")
}
