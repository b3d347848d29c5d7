import EntitlementJSON

/// Field paths in import errors (docs/import.md, section 6.2): `.name` for plain keys,
/// `["…"]` for others, `[n]` for array items, `#payload` after a decoded JWS.
enum ImportPath {
    /// The path of `key` inside the object at `parent`.
    static func member(_ parent: String, _ key: String) -> String {
        if isPlain(key) { return parent.isEmpty ? key : "\(parent).\(key)" }
        return parent + "[" + JSONWriter(style: .compact).string(.string(key)) + "]"
    }

    /// The path of item `index` of the array at `parent`.
    static func index(_ parent: String, _ index: Int) -> String { "\(parent)[\(index)]" }

    /// The path of a JWS string's decoded payload.
    static func payload(_ parent: String) -> String { parent + "#payload" }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    static func isPlain(_ key: String) -> Bool {
        guard let first = key.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return key.utf8.allSatisfy { isLetter($0) || $0 == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// A JSON value as it reads in "found …", cut to 40 characters.
    static func show(_ value: JSONValue) -> String {
        let text = JSONWriter(style: .compact).string(value)
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}
