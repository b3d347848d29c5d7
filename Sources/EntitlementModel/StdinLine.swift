/// The one rule for a line of `--stdin`, for `check --stdin` and `grant --stdin` alike
/// (docs/commands.md, "Standard input"):
///
/// - a line ends at `\n`; a `\r` before it is dropped (files from Windows);
/// - a blank line (empty, or spaces and tabs only) is skipped;
/// - a line whose first byte is `#` is a comment and skipped, so an id list can carry a
///   header or notes (an id that starts with `#` is given as an argument instead);
/// - any other line is one id, as it is: not valid UTF-8, longer than 4,096 bytes, or with
///   white space at either end, it is refused with its line number, never trimmed, since a
///   trimmed id could name another customer.
///
/// Line numbers count every line, skipped ones too, so they match an editor's.
package enum StdinLine: Equatable {
    /// Blank or a comment: no answer, no error.
    case skipped
    case id(String)
    case refused(UserID.Problem)

    package static func read(_ line: ArraySlice<UInt8>) -> StdinLine {
        var line = line
        if line.last == 0x0D { line = line.dropLast() }
        guard let first = line.first else { return .skipped }
        if first == UInt8(ascii: "#") { return .skipped }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .skipped }
        let id: String
        do { id = try UserID.validate(bytes: line) } catch { return .refused(error) }
        // Byte checks first: only an id that starts or ends outside ASCII needs the scalar's property.
        let last = line.last!
        if isASCIISpace(first) || isASCIISpace(last)
            || (first >= 0x80 && id.unicodeScalars.first!.properties.isWhitespace)
            || (last >= 0x80 && id.unicodeScalars.last!.properties.isWhitespace) {
            return .refused(.surroundingWhitespace(id))
        }
        return .id(id)
    }

    /// Space, tab, and the other ASCII white space (`\n` cannot occur inside a line).
    private static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
