/// One scanned JSON value: its kind and where its bytes are (no tree, no copy).
@usableFromInline
package enum ScannedValue {
    case absent, null
    case bool(Bool)
    /// The number's literal text.
    case number(Range<Int>)
    /// The string's content, between the quotes, with no escapes in it.
    case string(Range<Int>, ascii: Bool)
    /// The whole object or array, brackets included.
    case object(Range<Int>)
    case array(Range<Int>)

    @inlinable
    package var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    @inlinable
    package var isNullOrAbsent: Bool {
        switch self {
        case .absent, .null: return true
        default: return false
        }
    }
}
