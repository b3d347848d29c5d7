/// An object as read, kept for the fields the model does not know (and for the file's
/// own spelling of the ones it does), parsed only when someone asks for it.
///
/// The byte decoder (`ProfileDecoder`) reads the known fields straight from the file and
/// keeps each object as its bytes: a rewrite, an equality test or `unknownFields` parse
/// them then, so a command that only reads (`check`, `status`) never builds the tree.
/// The bytes were checked strictly when read, so parsing them again cannot fail.
package struct RawObject: Sendable {
    private enum Storage: Sendable {
        case tree(JSONObject)
        /// `bytes[range]` is one object of a document the byte decoder accepted.
        case source([UInt8], Range<Int>)
        /// The same, with where each top-level member is, noted by the decoder as it read them:
        /// key content and value, in pairs (`member` then reads one without walking the rest).
        case indexed([UInt8], Range<Int>, members: [Range<Int>])
    }

    private var storage: Storage

    package init(_ object: JSONObject = JSONObject()) { storage = .tree(object) }

    /// The object at `range` of `bytes` (an object the byte decoder accepted).
    package init(bytes: [UInt8], range: Range<Int>) { storage = .source(bytes, range) }

    /// The object at `range` of `bytes`, with every top-level member's key content and value
    /// ranges in pairs, as the byte decoder found them.
    package init(bytes: [UInt8], range: Range<Int>, members: [Range<Int>]) { storage = .indexed(bytes, range, members: members) }

    /// The object, parsed from its bytes if it was read by the byte decoder.
    package var object: JSONObject {
        get {
            switch storage {
            case .tree(let object): return object
            case .source(let bytes, let range), .indexed(let bytes, let range, _):
                let value = bytes.withUnsafeBufferPointer { buffer in
                    try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range]))
                }
                return value?.objectValue ?? JSONObject()
            }
        }
        set { storage = .tree(newValue) }
    }

    /// The object with each member named in `keys` as a `null` placeholder in its place, for
    /// a caller that sets every one of them (a profile's rewrite sets its transactions): what
    /// the caller replaces is not parsed, when the byte decoder noted where each member is.
    package func object(replacing keys: Set<String>) -> JSONObject {
        if case .indexed(let bytes, _, let members) = storage {
            let pairs: [(String, JSONValue)]? = bytes.withUnsafeBufferPointer { buffer in
                var pairs: [(String, JSONValue)] = []
                pairs.reserveCapacity(members.count / 2)
                for pair in stride(from: 0, to: members.count - 1, by: 2) {
                    let key = UnsafeBufferPointer(rebasing: buffer[members[pair]])
                    if key.contains(UInt8(ascii: "\\")) { return nil }
                    let name = String(decoding: key, as: UTF8.self)
                    if keys.contains(name) {
                        pairs.append((name, .null))
                    } else {
                        guard let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[members[pair + 1]])) else { return nil }
                        pairs.append((name, value))
                    }
                }
                return pairs
            }
            if let pairs { return JSONObject(uniqueKeys: pairs) }
        }
        var whole = object
        for key in keys where whole[key] != nil { whole[key] = .null }
        return whole
    }

    /// One top-level member, without parsing the others: reading one small field (`last_event`)
    /// of a profile the byte decoder kept as bytes costs a walk over the top level, not a tree
    /// of every transaction (docs/performance.md, "Layered modules"). The bytes were checked
    /// strictly when read, so the walk only counts brackets and skips strings; a key with an
    /// escape in it is answered from the parsed object, so the answer is always `object[key]`.
    package func member(_ key: String) -> JSONValue? {
        if case .indexed(let bytes, _, let members) = storage {
            return bytes.withUnsafeBufferPointer { buffer in
                for pair in stride(from: 0, to: members.count - 1, by: 2)
                where UnsafeBufferPointer(rebasing: buffer[members[pair]]).elementsEqual(key.utf8) {
                    return try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[members[pair + 1]]))
                }
                return nil
            }
        }
        guard case .source(let bytes, let range) = storage else { return object[key] }
        let found: JSONValue?? = bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            var index = Self.afterWhitespace(slice, 1)  // past the opening brace
            while index < slice.count, slice[index] == UInt8(ascii: "\"") {
                let keyEnd = Self.stringEnd(slice, index)
                guard keyEnd - 1 > index, keyEnd <= slice.count else { return nil }
                let name = UnsafeBufferPointer(rebasing: slice[(index + 1)..<(keyEnd - 1)])
                if name.contains(UInt8(ascii: "\\")) { return nil }
                index = Self.afterWhitespace(slice, keyEnd)
                index = Self.afterWhitespace(slice, index + 1)  // past the colon
                let valueEnd = Self.valueEnd(slice, index)
                if name.elementsEqual(key.utf8) {
                    return .some(try? JSONParser.parse(UnsafeBufferPointer(rebasing: slice[index..<valueEnd])))
                }
                index = Self.afterWhitespace(slice, valueEnd)
                if index < slice.count, slice[index] == UInt8(ascii: ",") { index = Self.afterWhitespace(slice, index + 1) }
            }
            return .some(nil)
        }
        return found ?? object[key]
    }

    private static func afterWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] <= 0x20 { index += 1 }
        return index
    }

    /// Just past the closing quote of the string that opens at `start`.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// Just past the (already validated) value that starts at `start`.
    private static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var index = start, depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = stringEnd(bytes, index)
                if depth == 0 { return index }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index }  // the end of a scalar that ends the object
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: ","):
                if depth == 0 { return index }
            default:
                if depth == 0, bytes[index] <= 0x20 { return index }
            }
            index += 1
        }
        return index
    }
}
