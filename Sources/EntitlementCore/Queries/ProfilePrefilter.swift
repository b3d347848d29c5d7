#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cheap test on a profile file's bytes that rules out profiles a query cannot match,
/// so `find` decodes only the few that might.
///
/// It is conservative: each group lists needles of which at least one must occur in any
/// file that can match (a profile in grace has a `grace_period_expires_at` key whose value
/// is a string, not null; a product filter needs the product id as a JSON string). A file with a `\u` or `\/`
/// escape may spell any of these differently, so it is always decoded.
struct ProfilePrefilter: Sendable {
    /// Bytes to find, and optionally what the value after them (a key's `:`) must start with.
    struct Needle: Sendable, Equatable {
        var bytes: [UInt8]
        var valueStart: UInt8?

        init(_ bytes: [UInt8], valueStart: UInt8? = nil) {
            self.bytes = bytes
            self.valueStart = valueStart
        }
    }

    /// Every group must have a hit; an empty list passes everything.
    let groups: [[Needle]]

    init(_ query: FindQuery, configuration: ProductConfiguration) {
        var groups: [[Needle]] = []
        if let states = query.states, !states.isEmpty {
            let needles = states.map(Self.needle(for:))
            if !needles.contains(where: { $0 == nil }) { groups.append(needles.compactMap { $0 }) }
            if !states.contains(.never), let id = query.entitlement {
                let products = configuration.entitlement(id)?.products ?? []
                groups.append(([id] + products).map { Needle(Self.quoted($0)) })
            }
        }
        if let product = query.product { groups.append([Needle(Self.quoted(product))]) }
        if let store = query.storeName {
            groups.append((store == Store.manual.rawValue ? ["manual_grant", store] : [store]).map { Needle(Self.quoted($0)) })
        }
        if let attribute = query.attribute { groups.append([Needle(Self.quoted(attribute.key))]) }
        self.groups = groups
    }

    /// A key (with the start of its value) that a profile in `state` must contain, if there is one:
    /// a grace date or revocation date is a string, billing retry is `true`.
    static func needle(for state: AccessState) -> Needle? {
        switch state {
        case .gracePeriod: return Needle(quoted("grace_period_expires_at"), valueStart: UInt8(ascii: "\""))
        case .billingRetry: return Needle(quoted("is_in_billing_retry"), valueStart: UInt8(ascii: "t"))
        case .revoked: return Needle(quoted("revoked_at"), valueStart: UInt8(ascii: "\""))
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

    /// True when `needle` occurs, and (for a key) some occurrence is followed by `:` and a value starting as required.
    static func contains(_ haystack: [UInt8], _ needle: Needle) -> Bool {
        guard let valueStart = needle.valueStart else { return contains(haystack, needle.bytes) }
        var from = 0
        while let hit = firstIndex(of: needle.bytes, in: haystack, from: from) {
            var index = hit + needle.bytes.count
            func skipSpace() { while index < haystack.count, [0x20, 0x09, 0x0A, 0x0D].contains(haystack[index]) { index += 1 } }
            skipSpace()
            if index < haystack.count, haystack[index] == UInt8(ascii: ":") {
                index += 1
                skipSpace()
                if index < haystack.count, haystack[index] == valueStart { return true }
            }
            from = hit + 1
        }
        return false
    }

    /// Escapes that spell a character another way than the writer does.
    static let unicodeEscape = Array("\\u".utf8)
    static let slashEscape = Array("\\/".utf8)

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        needle.isEmpty || firstIndex(of: needle, in: haystack, from: 0) != nil
    }

    /// Where `needle` first occurs at or after `from`: memchr to each candidate first byte, then memcmp.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count - from >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                let first = Int32(pin[0]), last = hay.count - pin.count
                var offset = from
                while offset <= last {
                    guard let hit = memchr(hay.baseAddress! + offset, first, last - offset + 1) else { return nil }
                    let position = hay.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hay.baseAddress! + position, pin.baseAddress!, pin.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
