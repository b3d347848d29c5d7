import EntitlementImport
import EntitlementModel

/// One answer of a vendor's API to import: its bytes, the format `import` reads it as, the
/// URL it came from (without credentials, for messages) and how its signed data is read.
package struct APIDocument: Sendable {
    package var bytes: [UInt8]
    var format: Vendor
    var name: String
    var jws: JWSReader

    init(bytes: [UInt8], format: Vendor, name: String, jws: JWSReader = .decodeOnly) {
        self.bytes = bytes
        self.format = format
        self.name = name
        self.jws = jws
    }
}

/// A vendor's API as `refresh` asks it: what it knows of one customer now, as documents
/// `import` reads. `stored` is the customer's profile before the refresh (its purchase
/// tokens, transaction ids and aliases say what to ask for); nil for a new customer.
package protocol RefreshSource: Sendable {
    /// The vendor, for messages (`Refreshed alice from Stripe: …`).
    var vendor: Vendor { get }
    /// Asks the API; any failure throws before anything is written.
    func documents(for user: String, stored: Profile?) throws(EntitlementError) -> [APIDocument]
    /// Ids in a document that stand for `user` itself (Stripe's `cus_…`): no warning when a
    /// document names one of them instead of the user.
    func ownNames(for user: String) -> Set<String>
}

extension RefreshSource {
    func ownNames(for user: String) -> Set<String> { [] }
}
