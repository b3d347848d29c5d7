import Foundation
import EntitlementJSON
import EntitlementModel

/// Profiles with everything a store file can hold, and byte edits of their files: the
/// inputs of the differential tests that read files two ways (`ProfileDecoder` against
/// the tree, the fast `check` path against the full one, the flat `status` path).
extension ProfileGenerator {
    /// Strings that exercise the scanner: non-ASCII, escapes, long, empty.
    package static let texts = ["", "x", "José", "e\u{301}", "😀 emoji", "quote \" and \\ backslash", "line\nbreak", "tab\t", "/slash/",
                                "com.example.premium.monthly.with.a.long.name", "\u{7F}", "2026-01-15T12:00:00Z"]

    /// A generated profile with unknown fields, vendor data and attributes of every kind.
    package static func richProfile(_ random: inout SplitMix64) -> Profile {
        var profile = ProfileGenerator.profile(&random)
        func text() -> String { texts[draw(&random, texts.count)] }
        profile.profileID = draw(&random, 3) == 0 ? nil : UUID(uuidString: "6B1C2F8E-5F7A-4A39-9A55-0D6A9F1E2B11")!.uuidString
        profile.createdAt = draw(&random, 3) == 0 ? nil : instant(&random)
        for index in 0..<draw(&random, 4) {
            profile.customAttributes["attr\(index)\(text())"] = [.string(text()), .int(index), .number("2.5e3"), .null][draw(&random, 4)]
        }
        for index in profile.transactions.indices {
            var raw = profile.transactions[index].raw
            if draw(&random, 3) == 0 { raw["x_note"] = .string(text()) }
            if draw(&random, 4) == 0 {
                raw["vendor"] = .object(JSONObject([("app_store", .object(JSONObject([("n", .array([.int(1), .bool(false), .null, .string(text())]))])))]))
            }
            if draw(&random, 5) == 0 { raw["expires_at"] = .null }
            profile.transactions[index].raw = raw
            if draw(&random, 4) == 0 { profile.transactions[index].price = [9.99, 0, 1e-3, 12][draw(&random, 4)] }
            if draw(&random, 4) == 0 { profile.transactions[index].currency = ["USD", "EUR"][draw(&random, 2)] }
            if draw(&random, 6) == 0 { profile.transactions[index].environment = .sandbox }
            if draw(&random, 6) == 0 { profile.transactions[index].reason = text() }
            if draw(&random, 12) == 0 {
                profile.transactions[index].restoredRevocations = [RestoredRevocation(
                    revokedAt: instant(&random), revokedBy: "ops", revocationReason: nil,
                    restoredAt: instant(&random), restoredBy: "ops", restoreReason: text())]
            }
        }
        if draw(&random, 4) == 0 { profile.raw["x_profile"] = .string(text()) }
        return profile
    }

    /// One byte edit: delete, duplicate, or replace with a byte that matters to JSON.
    package static func mutated(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var bytes = bytes
        let at = draw(&random, bytes.count)
        let specials: [UInt8] = Array("{}[]\",:\\ 0-.eEtn".utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        switch draw(&random, 3) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(bytes[at], at: at)
        default: bytes[at] = specials[draw(&random, specials.count)]
        }
        return bytes
    }
}
