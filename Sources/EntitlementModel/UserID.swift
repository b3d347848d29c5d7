import EntitlementBasics

/// The rules for a customer user id, the same whichever way it enters: a command-line
/// argument, a `check --stdin` line, `import --user` or an id inside an import document.
package enum UserID {
    /// The longest id, in UTF-8 bytes.
    package static let maxBytes = 4096

    /// Why an id was refused.
    package enum Problem: Error, Equatable, Sendable {
        case empty
        case tooLong(bytes: Int)
        case invalidUTF8
        /// Leading or trailing white space (a pasted id with a stray space).
        case surroundingWhitespace(String)
        /// A control character or bidirectional-text control, by code point.
        case invisibleControl(String, scalar: UInt32)

        package var message: String {
            switch self {
            case .empty: return "the user id must not be empty"
            case .tooLong: return "the user id is longer than \(UserID.maxBytes) bytes"
            case .invalidUTF8: return "the user id is not valid UTF-8"
            case .surroundingWhitespace(let id): return "the user id '\(Terminal.escape(id))' starts or ends with white space"
            case .invisibleControl(let id, let scalar):
                return "the user id '\(Terminal.escape(id))' contains a control character (U+\(hex(scalar)))"
            }
        }

        package var hint: String? {
            switch self {
            case .surroundingWhitespace: return "Check the id; grant never creates such a profile from the command line."
            case .invisibleControl: return "New profiles are never created for ids with control characters or bidirectional-text controls; existing ones stay readable."
            default: return nil
            }
        }
    }

    /// An id that may be looked up: non-empty, at most `maxBytes` bytes.
    package static func validate(_ id: String) throws(Problem) -> String {
        guard !id.isEmpty else { throw .empty }
        guard id.utf8.count <= maxBytes else { throw .tooLong(bytes: id.utf8.count) }
        return id
    }

    /// An id from raw bytes (a `--stdin` line): valid UTF-8 first, then `validate`.
    package static func validate(bytes: ArraySlice<UInt8>) throws(Problem) -> String {
        guard bytes.count <= maxBytes else { throw .tooLong(bytes: bytes.count) }
        guard let id = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return try validate(id)
    }

    /// An id that may create a new profile: `validate`, and no control characters or
    /// bidirectional-text controls, which would hide or reorder the id wherever it is shown.
    package static func validateNew(_ id: String) throws(Problem) -> String {
        let id = try validate(id)
        if let scalar = id.unicodeScalars.first(where: isInvisibleControl) { throw .invisibleControl(id, scalar: scalar.value) }
        return id
    }

    /// C0 and C1 controls, DEL, and the bidirectional marks, embeddings, overrides and isolates.
    package static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
