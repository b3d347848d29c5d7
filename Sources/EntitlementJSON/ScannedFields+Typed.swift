import FoundationEssentials
import EntitlementBasics

/// Typed reads of a slot, with `FieldReader`'s rules (`null` is absent; a wrong type gives up).
extension ScannedFields {
    @inlinable
    package func optionalString(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String? {
        switch values[slot] {
        case .absent, .null: return nil
        case .string(let range, _): return Self.makeString(range, bytes)
        default: throw Unsupported()
        }
    }

    /// A non-empty string (`FieldReader.identifier`).
    @inlinable
    package func identifier(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String {
        guard let text = try optionalString(slot, bytes), !text.isEmpty else { throw Unsupported() }
        return text
    }

    @inlinable
    package func optionalDate(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Date? {
        switch values[slot] {
        case .absent, .null: return nil
        case .string(let range, _):
            guard let date = ISODate.parse(utf8: UnsafeBufferPointer(rebasing: bytes[range])) else { throw Unsupported() }
            return date
        default: throw Unsupported()
        }
    }

    @inlinable
    package func optionalBool(_ slot: Int) throws(Unsupported) -> Bool? {
        switch values[slot] {
        case .absent, .null: return nil
        case .bool(let flag): return flag
        default: throw Unsupported()
        }
    }

    /// A finite number (`FieldReader.optionalNumber`: `Double` of the literal text).
    @inlinable
    package func optionalNumber(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Double? {
        switch values[slot] {
        case .absent, .null: return nil
        case .number(let range):
            let text = UnsafeBufferPointer(rebasing: bytes[range])
            if let number = DecimalLiteral.exactValue(text) { return number }
            guard let number = Double(Self.makeString(range, bytes)), number.isFinite else { throw Unsupported() }
            return number
        default: throw Unsupported()
        }
    }

    /// The value of a number literal at `range`, as `optionalNumber` reads it; nil when not finite.
    @inlinable
    package static func number(_ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let number = DecimalLiteral.exactValue(UnsafeBufferPointer(rebasing: bytes[range])) { return number }
        guard let number = Double(makeString(range, bytes)), number.isFinite else { return nil }
        return number
    }

    /// A whole number (`FieldReader.optionalInt`: `Int` of the literal text).
    @inlinable
    package func optionalInt(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Int? {
        switch values[slot] {
        case .absent, .null: return nil
        case .number(let range):
            guard let number = Int(Self.makeString(range, bytes)) else { throw Unsupported() }
            return number
        default: throw Unsupported()
        }
    }

    /// Absent, null or an object: the range of the object, if any.
    @inlinable
    package func optionalObject(_ slot: Int) throws(Unsupported) -> Range<Int>? {
        switch values[slot] {
        case .absent, .null: return nil
        case .object(let range): return range
        default: throw Unsupported()
        }
    }
}
