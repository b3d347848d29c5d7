import FoundationEssentials
import Glibc
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// A cheap test on a profile file's bytes that rules out profiles a query cannot match,
/// so `find` decodes only the few that might.
///
/// Twin of `StatusEngine`'s state rules (Engine/) and `FindQuery`: whatever state or filter
/// those can answer, a needle here must let through (`FindQueryTests` checks the sweep with
/// and without it).
///
/// It is conservative: each group lists needles of which at least one must occur in any
/// file that can match (a profile in grace has a `grace_period_expires_at` key whose value
/// is a string, not null; a product filter needs the product id as a JSON string). A file with a `\u` or `\/`
/// escape may spell any of these differently, so it is always decoded.
///
/// With the evaluation time, a grace date written in UTC as the writer writes dates
/// (`YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z`) is also compared with it, as
/// bytes: a grace period that ended more than a second before that time cannot be running
/// then. Any other spelling of the date (an offset such as `-05:00`) passes.
///
/// A file the filter rules out is still checked to be one well-formed JSON object
/// (`JSONValidator`), so a damaged profile is reported whatever the query.
package struct ProfilePrefilter: Sendable {
    /// Bytes to find, and optionally what the value after them (a key's `:`) must start with.
    struct Needle: Sendable, Equatable {
        var bytes: [UInt8]
        var valueStart: UInt8?
        /// For a date value: the first 19 bytes (`YYYY-MM-DDTHH:MM:SS`, UTC) of the earliest
        /// date that may still match; a date written with an earlier second cannot.
        var notBefore: [UInt8]?

        init(_ bytes: [UInt8], valueStart: UInt8? = nil, notBefore: [UInt8]? = nil) {
            self.bytes = bytes
            self.valueStart = valueStart
            self.notBefore = notBefore
        }
    }

    /// Every group must have a hit; an empty list passes everything.
    let groups: [[Needle]]

    /// With `date` (the evaluation time), grace dates are compared with it too.
    package init(_ query: FindQuery, configuration: ProductConfiguration, at date: Date? = nil) {
        var groups: [[Needle]] = []
        // One second earlier than `date`, cut to the second: a margin for the rounding of
        // `date`'s fraction when it is formatted, and of a stored date's when it is parsed.
        let notBefore = date.flatMap { Self.secondPrefix(ISODate.format($0.addingTimeInterval(-1))) }
        if let states = query.states, !states.isEmpty {
            let needles = states.map { Self.needle(for: $0, notBefore: notBefore) }
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
    /// a grace date or revocation date is a string, billing retry and a pause are `true`.
    /// A grace period runs until its date, so with `notBefore` an earlier date rules it out.
    static func needle(for state: AccessState, notBefore: [UInt8]? = nil) -> Needle? {
        switch state {
        case .gracePeriod: return Needle(quoted("grace_period_expires_at"), valueStart: UInt8(ascii: "\""), notBefore: notBefore)
        case .billingRetry: return Needle(quoted("is_in_billing_retry"), valueStart: UInt8(ascii: "t"))
        case .revoked: return Needle(quoted("revoked_at"), valueStart: UInt8(ascii: "\""))
        case .paused: return Needle(quoted("is_paused"), valueStart: UInt8(ascii: "t"))
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
        bytes.withUnsafeBytes { mayMatch($0) }
    }

    /// False only when the file cannot match the query (the bytes of a file being read).
    package func mayMatch(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !groups.isEmpty else { return true }
        if Self.hasEscape(bytes) { return true }
        return groups.allSatisfy { group in group.contains { Self.contains(bytes, $0) } }
    }

    /// True when `needle` occurs, and (for a key) some occurrence is followed by `:` and a value starting as required.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: Needle) -> Bool {
        guard let valueStart = needle.valueStart else { return firstIndex(of: needle.bytes, in: haystack, from: 0) != nil }
        var from = 0
        while let hit = firstIndex(of: needle.bytes, in: haystack, from: from) {
            var index = hit + needle.bytes.count
            func skipSpace() {
                while index < haystack.count, haystack[index] == 0x20 || haystack[index] == 0x09 || haystack[index] == 0x0A || haystack[index] == 0x0D {
                    index += 1
                }
            }
            skipSpace()
            if index < haystack.count, haystack[index] == UInt8(ascii: ":") {
                index += 1
                skipSpace()
                if index < haystack.count, haystack[index] == valueStart {
                    guard let notBefore = needle.notBefore else { return true }
                    if !isDate(in: haystack, at: index + 1, before: notBefore) { return true }
                }
            }
            from = hit + 1
        }
        return false
    }

    /// True when the string value at `start` is a UTC date in the writer's form
    /// (`YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` and the closing quote) whose
    /// first 19 bytes sort before `limit`. Any other form answers false: it may be any date
    /// (with an offset, the clock time written is not the UTC one).
    static func isDate(in bytes: UnsafeRawBufferPointer, at start: Int, before limit: [UInt8]) -> Bool {
        guard start + 20 <= bytes.count, limit.count == 19 else { return false }
        let value = UnsafeRawBufferPointer(rebasing: bytes[start..<start + 20])
        guard isSecondForm(value) else { return false }
        var end = start + 19
        if bytes[end] == UInt8(ascii: ".") {
            end += 1
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
        }
        guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "Z"), bytes[end + 1] == UInt8(ascii: "\"") else { return false }
        for offset in 0..<19 where value[offset] != limit[offset] {
            return value[offset] < limit[offset]
        }
        return false
    }

    /// The first 19 bytes of a formatted date, when the date has the writer's form.
    static func secondPrefix(_ formatted: String) -> [UInt8]? {
        let bytes = Array(formatted.utf8)
        guard bytes.count >= 20 else { return nil }
        return bytes.withUnsafeBytes { isSecondForm(UnsafeRawBufferPointer(rebasing: $0[..<20])) } ? Array(bytes[..<19]) : nil
    }

    /// `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `.` (20 bytes).
    private static func isSecondForm(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 20 else { return false }
        for (offset, byte) in bytes.enumerated() {
            switch offset {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: guard byte == UInt8(ascii: "T") else { return false }
            case 13, 16: guard byte == UInt8(ascii: ":") else { return false }
            case 19: guard byte == UInt8(ascii: "Z") || byte == UInt8(ascii: ".") else { return false }
            default: guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            }
        }
        return true
    }

    /// True when the bytes hold `\u` or `\/`: escapes that spell a character another way than the writer does.
    static func hasEscape(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count, let hit = memchr(base + offset, Int32(UInt8(ascii: "\\")), bytes.count - offset) {
            let position = base.distance(to: UnsafeRawPointer(hit))
            if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") || bytes[position + 1] == UInt8(ascii: "/") { return true }
            offset = position + 1
        }
        return false
    }

    /// Where `needle` first occurs at or after `from` (glibc's `memmem`).
    static func firstIndex(of needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard !needle.isEmpty else { return from <= haystack.count ? from : nil }
        guard let base = haystack.baseAddress, haystack.count - from >= needle.count else { return nil }
        return needle.withUnsafeBytes { pin in
            guard let hit = findBytes(base + from, haystack.count - from, pin.baseAddress!, pin.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }
}

/// `memmem(3)`, which Glibc's module map does not export (a GNU extension).
@_silgen_name("memmem")
private func findBytes(_ haystack: UnsafeRawPointer, _ haystackLength: Int, _ needle: UnsafeRawPointer, _ needleLength: Int) -> UnsafeMutableRawPointer?
