import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTrust

/// `lookup ORDER_ID`: Apple's Look Up Order ID (`GET /inApps/v1/lookup/{orderId}`), the
/// order ID printed on the e-mail receipt a customer forwards. Status 0: the transactions it
/// holds, verified, and the customer that holds them here (by `appAccountToken`, else the
/// original-transaction index); status 1: exit 3 (`VendorAPIError.orderNotFound`).
package struct AppStoreLookup: Sendable {
    package let session: AppStoreAPISession

    package init(session: AppStoreAPISession) { self.session = session }

    /// One transaction of the order and who holds it here.
    package struct Item: Sendable {
        package var transaction: Transaction
        package var appAccountToken: String?
        /// The customer holding it (nil: nobody yet), and how that was found.
        package var holder: String?
        package var holderSource: String?
    }

    /// What Apple answered for an order.
    package struct Found: Sendable {
        package var orderID: String
        package var items: [Item]
        package var answer: AppStoreAnswer
        /// The one customer holding the order's transactions, if exactly one does.
        package var holder: String? {
            let holders = Set(items.compactMap(\.holder))
            return holders.count == 1 ? holders.first : nil
        }
    }

    package func lookup(_ orderID: String) throws(EntitlementError) -> Found {
        let store = session.store
        let (url, body) = try session.api.get("/inApps/v1/lookup/\(URLComponent.encoded(orderID))")
        guard case .object(let root)? = try? JSONParser.parse(body), case .number(let status)? = root["status"] else {
            throw .vendorAPI(.unexpectedAnswer(url: url, detail: "no \"status\" number"))
        }
        guard Int(status) == 0 else {
            guard Int(status) == 1 else { throw .vendorAPI(.unexpectedAnswer(url: url, detail: "status \(status), neither 0 nor 1")) }
            throw .vendorAPI(.orderNotFound(orderID: orderID))
        }
        let answer = try AppStoreAnswer(body, url: url, verifier: session.verifier)
        var index = AppStoreCustomerIndex(store: store)
        var items: [Item] = []
        for mapped in answer.document.transactions {
            let token = mapped.vendor.objectValue?["transaction"]?.objectValue?["appAccountToken"]?.stringValue
            var item = Item(transaction: mapped.transaction, appAccountToken: token)
            if let token, !token.isEmpty, (try? store.loadProfile(userID: token)) != nil {
                item.holder = token
                item.holderSource = "appAccountToken"
            } else if let user = index.customer(holding: [mapped.transaction.originalTransactionID]) {
                item.holder = user
                item.holderSource = "original transaction"
            }
            items.append(item)
        }
        return Found(orderID: orderID, items: items, answer: answer)
    }
}
