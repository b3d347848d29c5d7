#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cheap test on a profile file's bytes that rules out profiles a query cannot match,
/// so `find` decodes only the few that might.
///
/// It is conservative: each group lists byte strings of which at least one must occur in
/// any file that can match (a profile in grace has a `grace_period_expires_at` key, a
/// product filter needs the product id as a JSON string). A file with a `\u` or `\/`
/// escape may spell any of these differently, so it is always decoded.
struct ProfilePrefilter: Sendable {
    /// Every group must have a hit; an empty list passes everything.
    let groups: [[[UInt8]]]

    init(_ query: FindQuery, configuration: ProductConfiguration) {
        var groups: [[[UInt8]]] = []
        if let states = query.states, !states.isEmpty {
            let needles = states.map(Self.needle(for:))
            if !needles.contains(where: { $0 == nil }) { groups.append(needles.compactMap { $0 }.map { Array($0.utf8) }) }
            if !states.contains(.never), let id = query.entitlement {
                let products = configuration.entitlement(id)?.products ?? []
                groups.append(([id] + products).map(Self.quoted))
            }
        }
        if let product = query.product { groups.append([Self.quoted(product)]) }
        if let store = query.storeName {
            groups.append(store == Store.manual.rawValue ? [Self.quoted("manual_grant"), Self.quoted(store)] : [Self.quoted(store)])
        }
        if let attribute = query.attribute { groups.append([Self.quoted(attribute.key)]) }
        self.groups = groups
    }

    /// A key that a profile in `state` must contain, if there is one.
    static func needle(for state: AccessState) -> String? {
        switch state {
        case .gracePeriod: return "\"grace_period_expires_at\""
        case .billingRetry: return "\"is_in_billing_retry\""
        case .revoked: return "\"revoked_at\""
        case .active, .expired, .scheduled, .never: return nil
        }
    }

    /// `text` as a JSON string literal, as the writer spells it.
    static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.writeString(text, into: &out)
        return out
    }

    var passesEverything: Bool { groups.isEmpty }

    /// False only when the file cannot match the query.
    func mayMatch(_ bytes: [UInt8]) -> Bool {
        guard !groups.isEmpty else { return true }
        if Self.contains(bytes, Self.unicodeEscape) || Self.contains(bytes, Self.slashEscape) { return true }
        return groups.allSatisfy { group in group.contains { Self.contains(bytes, $0) } }
    }

    /// Escapes that spell a character another way than the writer does.
    static let unicodeEscape = Array("\\u".utf8)
    static let slashEscape = Array("\\/".utf8)

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                // memchr to each candidate first byte, then memcmp the rest.
                let first = Int32(pin[0]), last = hay.count - pin.count
                var offset = 0
                while offset <= last {
                    guard let hit = memchr(hay.baseAddress! + offset, first, last - offset + 1) else { return false }
                    let position = hay.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hay.baseAddress! + position, pin.baseAddress!, pin.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }
}
