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
}
