/// URLs as printed: never with the credentials a URL may carry (`http://user:pw@host/`).
package enum URLText {
    /// `url` with any `user:password@` of its authority replaced by `…@`.
    package static func withoutCredentials(_ url: String) -> String {
        guard let (start, at) = userInfo(url) else { return url }
        let bytes = Array(url.utf8)
        return String(decoding: bytes[..<start], as: UTF8.self) + "…" + String(decoding: bytes[at...], as: UTF8.self)
    }

    /// The `user:password` part of `url`'s authority, if any (to scrub it from other text).
    static func credentials(of url: String) -> String? {
        guard let (start, at) = userInfo(url) else { return nil }
        return String(decoding: Array(url.utf8)[start..<at], as: UTF8.self)
    }

    /// `text` with every occurrence of `url`'s credentials (and of the password alone) replaced by `…`.
    package static func scrub(_ text: String, of url: String) -> String {
        guard let credentials = credentials(of: url), !credentials.isEmpty else { return text }
        var out = text.replacing(credentials, with: "…")
        if let colon = credentials.firstIndex(of: ":") {
            let password = String(credentials[credentials.index(after: colon)...])
            if !password.isEmpty { out = out.replacing(password, with: "…") }
        }
        return out
    }

    /// The byte offsets of the user information (after `://`) and of the `@` that ends it.
    private static func userInfo(_ url: String) -> (start: Int, at: Int)? {
        let bytes = Array(url.utf8)
        let separator = Array("://".utf8)
        guard bytes.count > 3, let found = (0...(bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 3]) == separator }) else { return nil }
        let start = found + 3
        var end = start
        while end < bytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) { end += 1 }
        guard let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return (start, at)
    }
}
