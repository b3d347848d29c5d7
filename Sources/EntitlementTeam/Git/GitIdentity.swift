import EntitlementBasics
/// A git author: name and email, from an actor written `Name <email>` or a bare name.
package struct GitIdentity: Equatable, Sendable {
    var name: String
    var email: String

    /// `Name <email>` splits in two; a bare name gets an empty email.
    init(actor: String) {
        let text = actor.trimmingWhitespace
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            name = String(text[..<open]).trimmingWhitespace
            email = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        } else {
            name = text
            email = ""
        }
        // git refuses an empty name, and `<`, `>` and newlines would break the commit header.
        name = Self.clean(name.isEmpty ? email : name)
        email = Self.clean(email)
        if name.isEmpty { name = "unknown" }
    }

    init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    package var description: String { email.isEmpty ? name : "\(name) <\(email)>" }

    /// True when `actor`, as recorded in a profile, names this identity
    /// (the whole `Name <email>`, the name alone, or the email alone).
    func matches(actor: String) -> Bool {
        let other = GitIdentity(actor: actor)
        if other == self { return true }
        if other.email.isEmpty { return other.name == name || (!email.isEmpty && other.name == email) }
        return false
    }

    private static func clean(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "<" && $0 != ">" && $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }
}
