import EntitlementModel

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

/// Reads `grant --stdin` line by line by `StdinLine`'s rule (the one `check --stdin` uses).
///
/// Only lines that hold an id are kept (the grants need them, and duplicates are found
/// among them); a refused line is handed to `refused` as soon as it is read and then
/// forgotten, so a million bad lines cost no memory (2M bad lines once took 1.5 GB).
package struct BulkGrantInput {
    package init() {}

    /// The lines to grant (valid ids and their duplicates), in input order.
    package private(set) var lines: [BulkGrantLine] = []
    /// Lines refused so far (reported, not kept).
    package private(set) var refusedCount = 0
    private var number = 0
    private var firstLine: [String: Int] = [:]

    /// Reads one line (without its `\n`); a refused one goes to `refused`.
    package mutating func read(_ raw: ArraySlice<UInt8>, refused: (BulkGrantLine) -> Void) {
        number += 1
        switch StdinLine.read(raw) {
        case .skipped: return
        case .refused(let problem):
            refusedCount += 1
            refused(BulkGrantLine(number: number, problem: Self.message(problem), displayID: String(decoding: raw.prefix(64), as: UTF8.self)))
        case .id(let id):
            if let problem = Self.problem(with: id) {
                refusedCount += 1
                refused(BulkGrantLine(number: number, problem: problem, displayID: String(decoding: Array(id.utf8.prefix(64)), as: UTF8.self)))
            } else if let first = firstLine[id] {
                lines.append(BulkGrantLine(number: number, userID: id, duplicateOf: first, displayID: id))
            } else {
                firstLine[id] = number
                lines.append(BulkGrantLine(number: number, userID: id, displayID: id))
            }
        }
    }

    /// Every line of `bytes`, refused ones included, in input order: for tests and small inputs.
    package static func parse(_ bytes: [UInt8]) -> [BulkGrantLine] {
        var input = BulkGrantInput()
        var all: [BulkGrantLine] = []
        var parts = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true { parts.removeLast() }
        for raw in parts {
            let kept = input.lines.count
            input.read(raw) { all.append($0) }
            if input.lines.count > kept { all.append(input.lines[kept]) }
        }
        return all
    }

    /// What grant says about a line `StdinLine` refuses.
    static func message(_ problem: UserID.Problem) -> String {
        switch problem {
        case .surroundingWhitespace: return "the user id starts or ends with white space"
        default: return problem.message
        }
    }

    /// What grant refuses beyond `StdinLine`'s rule: the rule of `grant USER` for a new id
    /// (no control characters).
    static func problem(with id: String) -> String? {
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "the user id contains a control character" }
        return nil
    }
}
