import Foundation
import Testing
@testable import EntitlementImport
@testable import EntitlementIngest
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

/// The one rule Adapty's and Qonversion's purchase events share (`PurchaseEventRule`): the
/// kind of record an event's name gives, and what a refund does to it.
@Suite(.tags(.unit))
struct PurchaseEventRuleTests {
    @Test(arguments: [
        ("subscription_started", false, "t1", "t1", TransactionType.subscriptionStarted),
        ("subscription_renewed", false, "t2", "t1", .subscriptionRenewed),
        ("trial_started", false, "t1", "t1", .trialStarted),
        ("trial_started", true, "t1", "t1", .nonConsumablePurchase),
        ("in_app_purchase", true, "t3", "t3", .nonConsumablePurchase),
    ])
    func kind(event: String, oneTime: Bool, id: String, original: String, expected: TransactionType) {
        #expect(PurchaseEventRule.kind(event: event, oneTime: oneTime, id: id, original: original) == expected)
    }

    @Test func environmentIsSandboxInAnyCase() {
        #expect(PurchaseEventRule.environment("SANDBOX") == .sandbox)
        #expect(PurchaseEventRule.environment("Production") == .production)
        #expect(PurchaseEventRule.environment(nil) == .production)
    }

    static func mapped(expires: Date?) -> MappedTransaction {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        return MappedTransaction(Transaction(transactionID: "t2", originalTransactionID: "t1", productID: "p", store: .appStore,
                                             type: .subscriptionRenewed, purchasedAt: start, expiresAt: expires), vendor: .null)
    }

    @Test func aRefundRevokesAtTheEventAndEndsTheSubscription() {
        let time = Date(timeIntervalSince1970: 1_767_312_000)
        for vendor in [Vendor.adapty, .qonversion] {
            var document = ImportDocument(format: vendor, shape: .event)
            PurchaseEventRule.record(Self.mapped(expires: time.addingTimeInterval(86_400)), refund: true, at: time, in: &document)
            #expect(document.transactions.map(\.transaction.revokedAt) == [time])
            #expect(document.transactions.first?.transaction.revocationReason == ImportValue.refunded)
            #expect(document.renewals.count == 1)
            #expect(document.renewals.first?.originalTransactionID == "t1")
        }
    }

    @Test func aPurchaseKeepsRenewingAndAOneTimePurchaseHasNoRenewal() {
        let time = Date(timeIntervalSince1970: 1_767_312_000)
        var renewing = ImportDocument(format: .adapty, shape: .event)
        PurchaseEventRule.record(Self.mapped(expires: time.addingTimeInterval(86_400)), refund: false, at: time, in: &renewing)
        #expect(renewing.transactions.first?.transaction.revokedAt == nil)
        #expect(renewing.renewals.count == 1)
        var once = ImportDocument(format: .qonversion, shape: .event)
        PurchaseEventRule.record(Self.mapped(expires: nil), refund: false, at: time, in: &once)
        #expect(once.transactions.count == 1)
        #expect(once.renewals.isEmpty)
    }
}
