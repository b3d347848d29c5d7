/// Where and why a JSON text failed to parse.
package struct JSONSyntaxError: Error, Equatable, Sendable {
    package var line: Int
    package var column: Int
    var message: String

    /// "line 3, column 14: expected ',' or '}'"
    package var description: String { "line \(line), column \(column): \(message)" }
}

/// A fast, strict JSON parser over UTF-8 bytes.
///
/// Hand-written because every command parses a profile, and Foundation's decoder
/// costs about ten times more per byte. It reports line and column on error, and
/// can accept the trailing commas that some vendors publish.
package struct JSONParser {
    /// Nesting deeper than this is rejected rather than risking the stack.
    static let maximumDepth = 512

    package static func parse(_ bytes: [UInt8], allowTrailingCommas: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in
            try parse(buffer, allowTrailingCommas: allowTrailingCommas)
        }
    }

    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, allowTrailingCommas: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        var parser = Cursor(bytes: buffer, allowTrailingCommas: allowTrailingCommas)
        parser.skipWhitespace()
        // A UTF-8 byte-order mark is tolerated at the start.
        if parser.peek() == 0xEF, buffer.count >= 3, buffer[1] == 0xBB, buffer[2] == 0xBF { parser.index = 3 }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    package static func parse(_ text: String, allowTrailingCommas: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), allowTrailingCommas: allowTrailingCommas)
    }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let allowTrailingCommas: Bool
    var index = 0
    /// Whether the last string `parseString` returned is known to be ASCII.
    var lastStringWasASCII = false

    init(bytes: UnsafeBufferPointer<UInt8>, allowTrailingCommas: Bool) {
        self.bytes = bytes
        self.allowTrailingCommas = allowTrailingCommas
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        let end = min(position ?? index, bytes.count)
        var line = 1, column = 1
        var i = 0
        while i < end {
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    func describeHere() -> String {
        guard let byte = peek() else { return "end of input" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else { throw error("nesting is too deep") }
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeHere()), expected a value")
        }
    }

    mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let start = index
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal", at: start) }
            index += 1
        }
    }

    /// Objects with fewer keys than this check duplicates by comparing with each
    /// earlier key (length first, then bytes), which beats hashing every key for the
    /// objects of profile files: a transaction has about twenty keys.
    static let linearDuplicateCheckLimit = 32

    /// True when `key` is not yet in `object`, comparing raw UTF-8 bytes (`JSONKey`),
    /// the rule of `JSONObject` lookups and of the writer.
    func isNewKey(_ key: String, in object: JSONObject, seen: inout Set<JSONKey>?) -> Bool {
        if seen == nil {
            if object.entries.count < Self.linearDuplicateCheckLimit {
                let count = key.utf8.count
                return object.entries.withUnsafeBufferPointer { entries in
                    for index in entries.indices where entries[index].key.utf8.count == count && JSONKey.equal(entries[index].key, key) { return false }
                    return true
                }
            }
            seen = Set(object.entries.map { JSONKey($0.key) })
        }
        return seen!.insert(JSONKey(key)).inserted
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var object = JSONObject()
        var seen: Set<JSONKey>?
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                if allowTrailingCommas, peek() == UInt8(ascii: "}"), !object.isEmpty { index += 1; return .object(object) }
                throw error("unexpected \(describeHere()), expected a key in double quotes")
            }
            let keyStart = index
            let key = try parseString()
            guard isNewKey(key, in: object, seen: &seen) else { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("unexpected \(describeHere()), expected ':'") }
            index += 1
            object.appendNew(key, try parseValue(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            default: throw error("unexpected \(describeHere()), expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(array) }
        while true {
            skipWhitespace()
            if allowTrailingCommas, peek() == UInt8(ascii: "]"), !array.isEmpty { index += 1; return .array(array) }
            array.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(array)
            default: throw error("unexpected \(describeHere()), expected ',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), first >= 0x30, first <= 0x39 else { throw error("invalid number", at: start) }
        if first == 0x30 { index += 1 } else { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), digit >= 0x30, digit <= 0x39 else { throw error("invalid number", at: start) }
            skipDigits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), digit >= 0x30, digit <= 0x39 else { throw error("invalid number", at: start) }
            skipDigits()
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    mutating func skipDigits() {
        while let byte = peek(), byte >= 0x30, byte <= 0x39 { index += 1 }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes.
        // Eight bytes at a time while none is '"', '\\' or a control character.
        let skipped = StringScan.skipOrdinary(bytes, from: index)
        index = skipped.index
        var union: UInt8 = skipped.sawNonASCII ? 0x80 : 0  // every byte OR-ed: below 0x80 means all ASCII
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                lastStringWasASCII = union < 0x80
                guard let string = Self.string(slice, isASCII: lastStringWasASCII) else {
                    throw error("invalid UTF-8 in string", at: start)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string; escape it", at: index) }
            union |= byte
            index += 1
        }
        lastStringWasASCII = false  // not tracked through escapes; only a missed shortcut
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = scratch.withUnsafeBufferPointer({ Self.string($0, isASCII: false) }) else {
                    throw error("invalid UTF-8 in string", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = peek() else { break }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &scratch)
                default: throw error("invalid escape sequence", at: index - 2)
                }
            default:
                if byte < 0x20 { throw error("control character in string; escape it", at: index) }
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    /// `bytes` as a string, or nil when they are not valid UTF-8.
    ///
    /// `String(validating:)` is generic and, unspecialized, costs a metadata lookup per
    /// call; this is the same test without it. ASCII is always valid. Otherwise,
    /// decoding replaces each ill-formed sequence by U+FFFD (EF BF BD), which valid
    /// input cannot hold in that place, so the bytes come back unchanged exactly
    /// when they were valid.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        if isASCII { return string }
        return string.utf8.elementsEqual(bytes) ? string : nil
    }

    mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func appendUnicodeEscape(to scratch: inout [UInt8]) throws(JSONSyntaxError) {
        var scalar = try readHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in \\u escape")
            }
            index += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired surrogate in \\u escape")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
        scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
    }
}
