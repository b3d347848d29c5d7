import FoundationEssentials
import EntitlementImport
import EntitlementModel

/// One vendor event in the store's terms: who it is about, when the vendor says it happened,
/// the id that makes it happen once, and what it does to the records.
package struct IngestEvent: Sendable {
    package var vendor: Vendor
    /// The vendor's event id: deduplicates (docs/ingest.md, "Deduplication").
    package var id: String
    /// The vendor's name for the event, e.g. `DID_FAIL_TO_RENEW/GRACE_PERIOD`.
    package var type: String
    /// The vendor's time for the event (App Store `signedDate`): orders events.
    var time: Date
    /// The customer (user id) the effects apply to; nil when the event changes no profile.
    var customer: String?
    var effects: EventEffects
    /// How the event was authenticated: `jws verified`, `authorization header`, `local input`.
    package var verification: String
    /// The customer the vendor named, when a transfer had moved the purchase away from them:
    /// `customer` is then the holder the event applied to (`TransferredHolder`).
    var addressedTo: String?

    init(vendor: Vendor, id: String, type: String, time: Date, customer: String?, effects: EventEffects, verification: String) {
        self.vendor = vendor
        self.id = id
        self.type = type
        self.time = time
        self.customer = customer
        self.effects = effects
        self.verification = verification
    }

    /// The order events are applied in: vendor time, then id, so any arrival order of the
    /// same events applies them the same way.
    static func applicationOrder(_ a: IngestEvent, _ b: IngestEvent) -> Bool {
        a.time != b.time ? a.time < b.time : (a.vendor != b.vendor ? a.vendor < b.vendor : a.id < b.id)
    }
}

/// What an event does to the store. Records are merged as `import` merges them, each one only
/// when the event is newer than the one that last set it (docs/ingest.md, "Order").
struct EventEffects: Sendable {
    /// Transactions, renewal info and product mappings for `IngestEvent.customer`.
    var document: ImportDocument?
    /// Transactions that move from one customer to another (RevenueCat `TRANSFER`).
    var transfer: EventTransfer?
    /// Other ids of the customer (RevenueCat `aliases`, `original_app_user_id`).
    var aliases: [String] = []
    /// Why the event changes nothing, for the types that never do (`TEST`, `PRICE_INCREASE`).
    var noChange: String?
    /// A Google Play purchase token whose purchase changed: its document is awaited (`AwaitingPurchase`).
    var awaitingPurchase: String?
    /// App Store original transaction ids, when the event names no customer (no `appAccountToken`):
    /// the customer is the one holding them (`AppStoreCustomerIndex`).
    var holderOf: [String] = []
    /// False when only the index was asked for `holderOf` (a webhook), so a miss says so.
    var holderSwept = true
    /// A voided Google Play purchase: its token's transactions are revoked (`PlayVoidedPurchase`).
    var playRevocation: PlayRevocation?

    init(document: ImportDocument? = nil, transfer: EventTransfer? = nil, aliases: [String] = [], noChange: String? = nil) {
        self.document = document
        self.transfer = transfer
        self.aliases = aliases
        self.noChange = noChange
    }

    /// An event that changes nothing, and why.
    static func none(_ reason: String) -> EventEffects { EventEffects(noChange: reason) }
}

/// Purchases that move between customers: all of `from`'s when `transactionIDs` is empty.
struct EventTransfer: Sendable, Equatable {
    var from: [String]
    var to: String
    var transactionIDs: [String]
}
