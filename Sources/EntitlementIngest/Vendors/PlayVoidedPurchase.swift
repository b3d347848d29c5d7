import EntitlementJSON
import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementImport

/// A Google Play purchase that was refunded, charged back or canceled by Google, however it
/// arrived: a `voidedPurchaseNotification` pushed by RTDN, or an entry of the Voided Purchases
/// API (`ingest --recover googleplay`). Both make the same event, with the same id, so a voided
/// purchase delivered both ways is applied once (docs/ingest.md, "Recovering missed events").
///
/// The event revokes the token's Play transactions in the profile that holds them, at the
/// voided time (`PlayRevocation`); the customer is found by the token (`PlayPurchaseHolders`).
struct PlayVoidedPurchase: Equatable, Sendable {
    var purchaseToken: String
    /// Google's order id (`GPA.…`; a renewal's ends `..N`): what was refunded.
    var orderID: String?
    /// When Google voided it (the API's `voidedTimeMillis`; a notification's `eventTimeMillis`).
    var voidedAt: Date

    /// The event type both paths record.
    static let type = "VOIDED_PURCHASE"

    /// `voided:ORDER_ID` (the order is what is refunded: renewals share a token), else
    /// `voided:TOKEN`: the ledger's id of the event, the same by either path.
    var eventID: String { "voided:" + (orderID.flatMap { $0.isEmpty ? nil : $0 } ?? purchaseToken) }

    func event(verification: String) -> IngestEvent {
        var effects = EventEffects()
        effects.playRevocation = PlayRevocation(token: purchaseToken, at: voidedAt, orderID: orderID)
        return IngestEvent(vendor: .googleplay, id: eventID, type: Self.type, time: voidedAt, customer: nil, effects: effects,
                           verification: verification)
    }
}

/// A Play purchase to revoke: every transaction of `token` in its customer's profile, at `at`.
struct PlayRevocation: Equatable, Sendable {
    var token: String
    var at: Date
    var orderID: String?

    /// The token of a stored Play transaction: `vendor.googleplay.purchase_token`, else its id.
    static func token(of transaction: Transaction) -> String {
        transaction.rawMember("vendor")?.objectValue?["googleplay"]?.objectValue?["purchase_token"]?.stringValue ?? transaction.transactionID
    }

    /// Why an event with no customer changes nothing: no profile holds the token.
    static func notHeld(_ token: String) -> String {
        "no customer here holds Google Play purchase token '\(Terminal.escape(token))': nothing to revoke"
    }

    /// `profile` with the token's Play transactions revoked at `at` (those revoked earlier stay
    /// as they are); nil when none changed.
    func revoking(in profile: Profile) -> Profile? {
        var revoked = profile
        var changed = false
        for index in revoked.transactions.indices where revoked.transactions[index].store == .playStore
            && Self.token(of: revoked.transactions[index]) == token {
            if let earlier = revoked.transactions[index].revokedAt, earlier <= at { continue }
            revoked.transactions[index].revokedAt = at
            revoked.transactions[index].revocationReason = ImportValue.refunded
            changed = true
        }
        return changed ? revoked : nil
    }
}
