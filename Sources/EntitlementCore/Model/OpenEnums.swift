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
    public init(rawValue: String) { self.rawValue = rawValue }

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
    public var isSubscription: Bool {
        self.is(.subscriptionStarted) || self.is(.subscriptionRenewed) || self.is(.trialStarted) || self.is(.introStarted) || self.is(.introRenewed)
    }

    /// True for one of the documented types (`known`).
    public var isKnown: Bool { Self.known.contains { self.is($0) } }

    /// `self == type` for a documented type, the byte length compared first: those names
    /// are ASCII letters and underscores, which no other spelling is canonically equivalent
    /// to, so a different length settles it without comparing the strings. (The engine
    /// asks this of every transaction, several times.)
    @inline(__always)
    public func `is`(_ type: TransactionType) -> Bool {
        rawValue.utf8.count == type.rawValue.utf8.count && self == type
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
