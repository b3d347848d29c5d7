import EntitlementBasics
import EntitlementJSON

/// A new customer's `profile_id`, and the ids a merge kept for it.
///
/// Two clones that each create the same customer must hand out the same id, or the id one
/// agent pasted into a ticket stops resolving after the merge. So a new profile's id is
/// derived from the customer user id alone: SHA-256 of a fixed prefix and the id's UTF-8,
/// written as a UUID (version 8, RFC 9562's layout for name-based custom ids). A profile
/// whose clones still disagree (made by older versions, or written by hand) keeps every id
/// anyone gave out in `profile_id_aliases`, and each still resolves.
package enum ProfileIdentity {
    package static let aliasesKey = "profile_id_aliases"

    /// The profile id a new profile of `userID` gets, in every store and on every clone.
    package static func derived(for userID: String) -> String {
        var digest = Array(SHA256.hexDigest(Array("entitlement profile_id\0".utf8) + Array(userID.utf8)).prefix(32))
        digest[12] = "8"  // version 8
        let variant = Int(String(digest[16]), radix: 16)!
        digest[16] = Array("0123456789abcdef")[8 | (variant & 0x3)]  // RFC 9562 variant (10xx)
        let text = String(digest)
        func part(_ from: Int, _ to: Int) -> Substring { text.dropFirst(from).prefix(to - from) }
        return [part(0, 8), part(8, 12), part(12, 16), part(16, 20), part(20, 32)].joined(separator: "-")
    }
}

extension Profile {
    /// Other ids this customer was given (kept by a merge of two creations); each resolves.
    package var profileIDAliases: [String] {
        get {
            guard case .array(let items)? = raw[ProfileIdentity.aliasesKey] else { return [] }
            return items.compactMap(\.stringValue)
        }
        set { raw[ProfileIdentity.aliasesKey] = newValue.isEmpty ? nil : .array(newValue.map(JSONValue.string)) }
    }

    /// True when `id` is this profile's id or one of its aliases.
    package func answers(toProfileID id: String) -> Bool {
        profileID == id || profileIDAliases.contains(id)
    }
}
