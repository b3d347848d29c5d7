/// The customer ids of `grant --stdin`, one per line, each with its line number.
package struct BulkGrantLine: Equatable, Sendable {
    package var number: Int
    /// The id, when the line holds a valid one.
    package var userID: String?
    /// Why the line is not a valid id.
    var problem: String?
    /// The earlier line with the same id: this one is skipped.
    package var duplicateOf: Int?

    /// The id as shown in reports, even for a bad line (cut to 64 bytes).
    package var displayID: String
}

package enum BulkGrantInput {
    /// Splits `bytes` into lines; blank lines are skipped, `\r\n` is accepted.
    package static func parse(_ bytes: [UInt8]) -> [BulkGrantLine] {
        var lines: [BulkGrantLine] = []
        var firstLine: [String: Int] = [:]
        var number = 0
        for var raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            if raw.last == 0x0D { raw = raw.dropLast() }
            if raw.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let shown = String(decoding: raw.prefix(64), as: UTF8.self)
            guard let id = String(validating: raw, as: UTF8.self) else {
                lines.append(BulkGrantLine(number: number, problem: "the user id is not valid UTF-8", displayID: shown))
                continue
            }
            if let problem = problem(with: id, byteCount: raw.count) {
                lines.append(BulkGrantLine(number: number, problem: problem, displayID: shown))
                continue
            }
            if let first = firstLine[id] {
                lines.append(BulkGrantLine(number: number, userID: id, duplicateOf: first, displayID: id))
                continue
            }
            firstLine[id] = number
            lines.append(BulkGrantLine(number: number, userID: id, displayID: id))
        }
        return lines
    }

    /// The rules of `grant USER`: at most 4096 bytes, no white space around, no control characters.
    static func problem(with id: String, byteCount: Int) -> String? {
        if byteCount > 4096 { return "the user id is longer than 4096 bytes" }
        if id.trimmingWhitespace != id { return "the user id starts or ends with white space" }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "the user id contains a control character" }
        return nil
    }
}
