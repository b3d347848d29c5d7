import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Cell widths, fitted tables, and csv/tsv quoting, as properties over generated text.
@Suite(.tags(.unit))
struct TableFittingTests {
    @Test(arguments: [("abc", 3), ("日本語", 6), ("ｶﾀｶﾅ", 4), ("ＡＢ", 4), ("e\u{301}", 1), ("👍", 2), ("🇳🇱", 2), ("a\u{200D}b", 2), ("한국", 4), ("", 0)])
    func cellWidth(_ text: String, _ cells: Int) {
        #expect(CellWidth.of(text) == cells)
    }

    @Test func widthTablesAreSortedForTheBinarySearch() {
        for table in [CellWidth.wide, CellWidth.zero] {
            for (a, b) in zip(table, table.dropFirst()) { #expect(a.upperBound < b.lowerBound, "\(a) \(b)") }
        }
    }

    static let pieces = ["a", "bc", "日本", "👍", "e\u{301}", "Ω", "premium", " ", "ｶ", "한"]

    /// Whatever the cells, a fitted table never exceeds the width.
    @Test func fittedTablesNeverExceedTheWidth() {
        var random = SplitMix64(seed: 13)
        for _ in 0..<300 {
            var table = TextTable(columns: [.init("ID"), .init("STATE"), .init("WHEN", dropRank: 2), .init("NOTE", dropRank: 1)])
            for _ in 0..<(1 + Int(random.next() % 4)) {
                var row: [String] = []
                for _ in 0..<4 {
                    row.append((0..<(1 + Int(random.next() % 5))).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined())
                }
                table.append(row, short: [2: String(row[2].prefix(2))])
            }
            let width = 10 + Int(random.next() % 60)
            let text = table.render(width: width)
            if text.hasPrefix("-[ RECORD") { continue }
            let lines = text.split(separator: "\n")
            for line in lines { #expect(CellWidth.of(line) <= width, "\(line) > \(width)") }
        }
    }

    /// Columns that are cut before they are dropped (`minimumWidth`) still never exceed the width.
    @Test func cutColumnsNeverExceedTheWidth() {
        var random = SplitMix64(seed: 31)
        for _ in 0..<300 {
            var table = TextTable(columns: [.init("ID"), .init("STATE"), .init("WHEN", dropRank: 1), .init("BY", dropRank: 3, minimumWidth: 4),
                                            .init("NOTE", dropRank: 2, minimumWidth: 5)])
            for _ in 0..<(1 + Int(random.next() % 4)) {
                table.append((0..<5).map { _ in (0..<(1 + Int(random.next() % 6))).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined() })
            }
            let width = 10 + Int(random.next() % 60)
            let text = table.render(width: width)
            if text.hasPrefix("-[ RECORD") { continue }
            for line in text.split(separator: "\n") { #expect(CellWidth.of(line) <= width, "\(line) > \(width)") }
        }
    }

    /// A column with a `minimumWidth` is cut (ending in `…`) before it is dropped.
    @Test func aCuttableColumnIsCutBeforeItIsDropped() {
        var table = TextTable(columns: [.init("ID"), .init("BY", dropRank: 1, minimumWidth: 6)])
        table.append(["premium", "customer-support@example.com"])
        #expect(table.render(width: 20) == "ID       BY\npremium  customer-s…\n")
        #expect(table.render(width: 14) == "ID\npremium\n", "below its minimum it goes")
    }

    /// `status` at 34 columns: a user id longer than the line wraps under itself (it printed a 35-column line).
    @Test func statusAt34ColumnsFitsALongUserID() {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let user = "customer-with-a-long-id@example.com"
        #expect(runCLI(["grant", user, "premium", "--duration", "1m", "--store", store]).exitCode == 0)
        for width in [34, 40, 24] {
            let result = runCLI(["status", user, "--store", store], environment: ["COLUMNS": String(width), "NO_COLOR": "1"], terminal: true)
            #expect(result.exitCode == 0)
            for line in result.stdout.split(separator: "\n") { #expect(CellWidth.of(line) <= width, "\(line) > \(width)") }
            #expect(result.stdout.replacingOccurrences(of: "\n        ", with: "").contains("Profile " + user), "\(result.stdout)")
        }
    }

    @Test func verticalRecordsBelowTheMinimumWidth() {
        var table = TextTable(columns: [.init("ENTITLEMENT"), .init("STATE")])
        table.append(["premium", "active"])
        #expect(table.render(width: 10) == "-[ RECORD 1 ]-\nENTITLEMENT | premium\nSTATE       | active\n")
        #expect(table.render(width: 30) == "ENTITLEMENT  STATE\npremium      active\n")
        #expect(table.render(width: nil) == table.render(width: 1000))
    }

    /// A minimal RFC 4180 reader, to read back what the writer wrote.
    func readCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"" { if characters.first == "\"" { field.unicodeScalars.append("\""); characters.removeFirst() } else { quoted = false } }
                else { field.unicodeScalars.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\r", characters.first == "\n" { characters.removeFirst(); row.append(field); rows.append(row); row = []; field = "" }
            else { field.unicodeScalars.append(c) }
        }
        return rows
    }

    @Test func csvAndTSVRoundTripAnyText() {
        var random = SplitMix64(seed: 4180)
        let alphabet = ["a", ",", "\"", "\n", "\r", "\t", "\\", " ", "日", "x y", "\r\n"]
        for _ in 0..<500 {
            let fields = (0..<(1 + Int(random.next() % 5))).map { _ in
                (0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            }
            #expect(readCSV(DelimitedText.line(fields, format: .csv)) == [fields])
            let tsv = DelimitedText.line(fields, format: .tsv)
            #expect(tsv.filter { $0 == "\n" }.count == 1 && tsv.hasSuffix("\n"))
            #expect(tsv.dropLast().split(separator: "\t", omittingEmptySubsequences: false).count == fields.count)
        }
    }

    /// Control characters and bidi marks from data: escaped in tsv always, in csv on a terminal;
    /// csv in a pipe keeps the data exact.
    @Test func delimitedOutputNeverDrivesATerminal() {
        let fields = ["a\u{1b}[31m", "b\u{07}", "c\u{202e}d", "e\\u{1b}"]
        let tsv = DelimitedText.line(fields, format: .tsv)
        #expect(tsv == "a\\u{1b}[31m\tb\\u{7}\tc\\u{202e}d\te\\\\u{1b}\n")
        let terminalCSV = DelimitedText.line(fields, format: .csv, terminal: true)
        #expect(!terminalCSV.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(terminalCSV.hasPrefix("a\\u{1b}[31m,"))
        #expect(readCSV(DelimitedText.line(fields, format: .csv)) == [fields])
    }
}
