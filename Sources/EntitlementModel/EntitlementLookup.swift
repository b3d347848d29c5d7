import Synchronization

/// The positions of a configuration's entitlements by id, built on the first lookup of a
/// large configuration and dropped whenever the entitlements change
/// (`summary`, `verify` and `status` looked each of 8,000 entitlements up by a scan).
///
/// A class, so copies of one configuration share what was built; always equal, so it
/// never makes two configurations differ.
final class EntitlementLookup: Sendable, Equatable {
    /// Up to this many entitlements a scan is as fast as a table and allocates nothing.
    static let scanLimit = 16

    private let positions = Mutex<[String: Int]?>(nil)

    init() {}

    /// The position of the first entitlement named `id`.
    func position(of id: String, in entitlements: [ProductConfiguration.Entitlement]) -> Int? {
        guard entitlements.count > Self.scanLimit else { return entitlements.firstIndex { $0.id == id } }
        return positions.withLock { positions in
            if positions == nil {
                var table: [String: Int] = [:]
                table.reserveCapacity(entitlements.count)
                for (position, entitlement) in entitlements.enumerated() where table[entitlement.id] == nil { table[entitlement.id] = position }
                positions = table
            }
            return positions?[id]
        }
    }

    static func == (lhs: EntitlementLookup, rhs: EntitlementLookup) -> Bool { true }
}
