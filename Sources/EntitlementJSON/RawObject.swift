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
    }

    private var storage: Storage

    package init(_ object: JSONObject = JSONObject()) { storage = .tree(object) }

    /// The object at `range` of `bytes` (an object the byte decoder accepted).
    package init(bytes: [UInt8], range: Range<Int>) { storage = .source(bytes, range) }

    /// The object, parsed from its bytes if it was read by the byte decoder.
    package var object: JSONObject {
        get {
            switch storage {
            case .tree(let object): return object
            case .source(let bytes, let range):
                let value = bytes.withUnsafeBufferPointer { buffer in
                    try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range]))
                }
                return value?.objectValue ?? JSONObject()
            }
        }
        set { storage = .tree(newValue) }
    }

    /// One top-level member, without parsing the others: reading one small field (`last_event`)
    /// of a profile the byte decoder kept as bytes costs a scan of the top level, not a tree of
    /// every transaction (docs/performance.md, "Layered modules"). Anything the scanner leaves to
    /// the tree (an escaped key, deep nesting) is answered from the parsed object, so the answer
    /// is always `object[key]`.
    package func member(_ key: String) -> JSONValue? {
        guard case .source(let bytes, let range) = storage else { return object[key] }
        let found: JSONValue?? = bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            var cursor = ByteCursor(slice)
            do {
                try cursor.beginObject()
                var first = true
                while let name = try cursor.nextKey(first: &first) {
                    let start = cursor.index
                    _ = try cursor.value()
                    guard slice[name].elementsEqual(key.utf8) else { continue }
                    return .some(try? JSONParser.parse(UnsafeBufferPointer(rebasing: slice[start..<cursor.index])))
                }
                return .some(nil)
            } catch {
                return nil
            }
        }
        return found ?? object[key]
    }
}
