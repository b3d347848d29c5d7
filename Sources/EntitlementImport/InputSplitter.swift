/// Splits standard input into documents: one JSON value after another, separated by
/// whitespace (so JSON Lines and concatenated documents both work), or bare JWS lines.
///
/// Only brackets and strings are tracked; each piece is then parsed on its own, so a
/// broken document fails alone unless its brackets never close.
package enum InputSplitter {
    /// One document: its bytes and where it starts (1-based line and column) in the input.
    package struct Piece: Equatable, Sendable {
        package var bytes: [UInt8]
        package var line: Int
        package var column: Int

        package init(bytes: [UInt8], line: Int, column: Int) {
            self.bytes = bytes
            self.line = line
            self.column = column
        }
    }

    package static func split(_ input: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var index = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1, column = 1
        func advance(_ byte: UInt8) {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        while true {
            while index < input.count, isSpace(input[index]) { advance(input[index]); index += 1 }
            guard index < input.count else { break }
            let start = index, startLine = line, startColumn = column
            var depth = 0, inString = false, escaped = false
            repeat {
                let byte = input[index]
                advance(byte)
                index += 1
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                }
                if depth <= 0, !inString, index < input.count {
                    let next = input[index]
                    let closedValue = byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "\"")
                    if closedValue && depth == 0 || isSpace(next) { break }
                }
            } while index < input.count
            pieces.append(Piece(bytes: Array(input[start..<index]), line: startLine, column: startColumn))
        }
        return pieces
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
