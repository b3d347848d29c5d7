/// Object keys compare as raw UTF-8 bytes, everywhere: the parser's duplicate check,
/// `JSONObject` lookups and the writer's key order. So "café" in NFC and in NFD are two
/// different keys, as the JSON specification has them (docs/store-format.md, "Object keys").
struct JSONKey: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: JSONKey, rhs: JSONKey) -> Bool { JSONKey.equal(lhs.text, rhs.text) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte equality of two keys (length first: it settles most comparisons).
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// Byte order of two keys: the order of the writer's sorted output.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
