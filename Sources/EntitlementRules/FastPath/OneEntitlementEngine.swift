import FoundationEssentials
import EntitlementModel

/// Twin of `StatusEngine` (Engine/): keep the two equal, rule for rule (the differential
/// test `FastCheckTests` compares them; `FastCheckStoreTests` and `FastCheckLineTests` do
/// again on a store on disk, through `check USER` and `check --stdin`).
///
/// `StatusEngine.evaluate(_:for:at:).accessLevel` for one entitlement, over the
/// `CheckTransaction`s of `CheckProfileScanner`: the same rules, in the same order, with
/// no `Profile`, no `Evaluation` and no dictionaries. Ids compare as bytes, which the
/// scanner allows only for ASCII (where bytes and `String` agree).
///
/// The tie rules follow `StatusEngine` exactly: `max(by:)` and `min(by:)` keep the first
/// of equal elements, and so does every loop here.
package struct OneEntitlementEngine: Sendable {
    let entitlement: String
    /// The products that unlock `entitlement`, as bytes.
    let products: [[UInt8]]
    let entitlementBytes: [UInt8]
    let environment: EnvironmentFilter

    /// Nil when the bytes rules cannot stand in for `String` equality (an id outside ASCII).
    package init?(_ entitlement: String, configuration: ProductConfiguration, environment: EnvironmentFilter) {
        let products = configuration.entitlement(entitlement)?.products ?? []
        guard entitlement.utf8.allSatisfy({ $0 < 0x80 }), products.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return nil }
        self.entitlement = entitlement
        self.products = products.map { Array($0.utf8) }
        entitlementBytes = Array(entitlement.utf8)
        self.environment = environment
    }

    func includes(_ transaction: CheckTransaction) -> Bool {
        switch environment {
        case .any: return true
        case .production: return !transaction.isSandbox
        case .sandbox: return transaction.isSandbox
        }
    }

    /// True when `transaction` counts towards the entitlement (`StatusEngine.transaction(_:unlocks:)`).
    func unlocks(_ transaction: CheckTransaction, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if transaction.isManualGrant {
            guard let range = transaction.entitlement else { return false }
            return Self.equal(bytes, range, entitlementBytes)
        }
        guard let range = transaction.product else { return false }
        return products.contains { Self.equal(bytes, range, $0) }
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ other: [UInt8]) -> Bool {
        guard range.count == other.count else { return false }
        return other.withUnsafeBufferPointer { other in
            for offset in 0..<other.count where bytes[range.lowerBound + offset] != other[offset] { return false }
            return true
        }
    }
}
