import Foundation
import Synchronization
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// The read path's shortcuts decode exactly what plain lookups decode: byte-rule key
    /// comparison, one-pass field tables, the writer's skipped sort, reading to `st_size`.
    struct FastDecodeTests {
        /// Pieces keys are made of: ASCII, a key's own prefixes, NFC and NFD "é", the
        /// Kelvin sign and "K" (canonically equivalent, different bytes), an emoji.
        static let pieces = ["a", "_", "id", "at", "transaction_", "expires", "é", "e\u{301}", "\u{212A}", "K", "😀", "z", "\u{7F}"]

        static func key(_ random: inout SplitMix64) -> String {
            (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }

        /// The byte order, written the slow way.
        static func referenceCompare(_ lhs: String, _ rhs: String) -> Int {
            if Array(lhs.utf8) == Array(rhs.utf8) { return 0 }
            return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
        }

        @Test func keyComparisonIsByteOrder() {
            var random = SplitMix64(seed: 14_2026)
            for _ in 0..<20_000 {
                let lhs = Self.key(&random), rhs = random.next() % 4 == 0 ? lhs : Self.key(&random)
                #expect(JSONKey.compare(lhs, rhs).signum() == Self.referenceCompare(lhs, rhs))
                #expect(JSONKey.equal(lhs, rhs) == (Array(lhs.utf8) == Array(rhs.utf8)))
                #expect(JSONKey.precedes(lhs, rhs) == (Self.referenceCompare(lhs, rhs) < 0))
            }
            #expect(!JSONKey.equal("\u{212A}", "K"))
            #expect(!JSONKey.equal("caf\u{E9}", "cafe\u{301}"))
        }

        @Test func objectLookupMatchesByteScan() {
            var random = SplitMix64(seed: 7_14)
            for _ in 0..<2_000 {
                let object = JSONObject((0..<Int(random.next() % 40)).map { index in (Self.key(&random), JSONValue.int(index)) })
                for _ in 0..<10 {
                    let wanted = random.next() % 2 == 0 && !object.isEmpty ? object.keys[Int(random.next() % UInt64(object.keys.count))] : Self.key(&random)
                    let reference = object.entries.first { Array($0.key.utf8) == Array(wanted.utf8) }?.value
                    #expect(object[wanted] == reference)
                }
            }
        }

        @Test func writerSortsOnlyWhenNeededAndInByteOrder() {
            var random = SplitMix64(seed: 3_1415)
            for round in 0..<2_000 {
                var object = JSONObject((0..<Int(random.next() % 20)).map { index in (Self.key(&random), JSONValue.int(index)) })
                if round % 2 == 0 { object = JSONObject(object.entries.sorted { Self.referenceCompare($0.key, $1.key) < 0 }.map { ($0.key, $0.value) }) }
                let sorted = JSONWriter.sorted(object.entries)
                #expect(sorted.map(\.key) == object.entries.sorted { Self.referenceCompare($0.key, $1.key) < 0 }.map(\.key))
            }
        }

        /// Every object in a JSON document, depth first.
        static func objects(in value: JSONValue) -> [JSONObject] {
            switch value {
            case .object(let object): return [object] + object.entries.flatMap { objects(in: $0.value) }
            case .array(let items): return items.flatMap(objects(in:))
            default: return []
            }
        }

        /// Objects to decode: every object of every fixture file and of generated profiles,
        /// each also with fields dropped, nulled, retyped and unknown keys added.
        static func corpus() throws -> [JSONObject] {
            var documents: [JSONValue] = []
            let root = repositoryRoot + "/Fixtures"
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") } ?? []
            #expect(files.count > 10)
            for file in files.sorted() {
                guard let bytes = FileManager.default.contents(atPath: root + "/" + file) else { continue }
                if let value = try? JSONParser.parse(Array(bytes), allowTrailingCommas: true) { documents.append(value) }
            }
            var random = SplitMix64(seed: 2_000)
            for _ in 0..<200 { documents.append(ProfileGenerator.profile(&random).json) }
            var objects = documents.flatMap(Self.objects(in:))
            let replacements: [JSONValue] = [.null, .bool(true), .int(7), .number("9.5"), .string(""), .string("x"), .string("2026-01-15T12:00:00Z"), .array([]), .object(JSONObject())]
            let known = Transaction.fieldTable.keys + RenewalInfo.fieldTable.keys
            for object in objects.prefix(3_000) {
                var mutated = object
                for _ in 0..<3 {
                    let key = random.next() % 3 == 0 ? Self.key(&random) : known[Int(random.next() % UInt64(known.count))]
                    if random.next() % 4 == 0 { mutated[key] = nil } else { mutated[key] = replacements[Int(random.next() % UInt64(replacements.count))] }
                }
                objects.append(mutated)
            }
            return objects
        }

        @Test func oneFieldPassReadsWhatLookupsRead() throws {
            let corpus = try Self.corpus()
            #expect(corpus.count > 4_000)
            var decoded = 0
            for object in corpus {
                for table in [Transaction.fieldTable, RenewalInfo.fieldTable] {
                    let plain = FieldReader(object, path: "p"), fast = FieldReader(object, path: "p", fields: table)
                    for key in table.keys + object.keys + ["", "typ", "types", "\u{212A}"] { #expect(fast.value(key) == plain.value(key)) }
                }
                let plain = Result { () throws(FieldError) in try Transaction(json: FieldReader(object, path: "t"), oneFieldAtATime: ()) }
                let fast = Result { () throws(FieldError) in try Transaction(json: FieldReader(object, path: "t")) }
                #expect(fast == plain)
                if case .success = fast { decoded += 1 }
                let plainRenewal = Result { () throws(FieldError) in try RenewalInfo(json: FieldReader(object, path: "r"), oneFieldAtATime: ()) }
                #expect(Result { () throws(FieldError) in try RenewalInfo(json: FieldReader(object, path: "r")) } == plainRenewal)
            }
            #expect(decoded > 1_000)  // the corpus holds valid transactions, not only errors
        }

        /// A reader without the interning tables (the check scanner's kind) makes the same
        /// strings as one with them, for repeated and new values alike.
        @Test func repeatedStringsAreTheSameWithoutInterning() throws {
            let text = #"[{"product_id": "p.monthly", "store": "app_store"}, {"product_id": "p.monthly", "store": "stripe"}, {"product_id": "é.yearly"}]"#
            let bytes = Array(text.utf8)
            var strings: [[String?]] = [[], []]
            for (index, interning) in [true, false].enumerated() {
                var fields = ScannedFields(Transaction.fieldTable, interning: interning)
                try bytes.withUnsafeBufferPointer { buffer in
                    var cursor = ByteCursor(buffer)
                    try cursor.beginArray()
                    var first = true
                    while try cursor.nextElement(first: &first) {
                        _ = try fields.read(&cursor) { (cursor: inout ByteCursor, _: Range<Int>) throws(Unsupported) in _ = try cursor.value() }
                        strings[index].append(try fields.repeatedString(ProfileDecoder.TransactionSlot.productID, buffer))
                        strings[index].append(try fields.repeatedString(ProfileDecoder.TransactionSlot.store, buffer))
                    }
                }
            }
            #expect(strings[0] == ["p.monthly", "app_store", "p.monthly", "stripe", "é.yearly", nil])
            #expect(strings[1] == strings[0])
        }

        /// A pipe has no size: its bytes are read into room that doubles, and none is lost
        /// or repeated at a doubling.
        @Test func aPipeIsReadWholeAsItsRoomGrows() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let (readEnd, writeEnd) = (ends[0], ends[1])
            let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            let writer = Thread {
                bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let written = write(writeEnd, raw.baseAddress! + offset, min(raw.count - offset, 3_000))
                        guard written > 0 else { break }
                        offset += written
                    }
                }
                close(writeEnd)
            }
            writer.start()
            defer { close(readEnd) }
            #expect(try FileSystem.system.readFile("/dev/fd/\(readEnd)", policy: .userFile) == bytes)
        }

        @Test func storeFilesAreReadUpToTheirSizeInOneRead() throws {
            let directory = TemporaryDirectory()
            for size in [0, 1, 4_095, 4_096, 70_000] {
                let path = directory.path + "/file-\(size)"
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let reads = Mutex(0)
                var fileSystem = FileSystem.system
                fileSystem.read = { fd, buffer, count in
                    reads.withLock { $0 += 1 }
                    return FileSystem.system.read(fd, buffer, min(count, 1_000))  // short reads too
                }
                #expect(try fileSystem.readFile(path) == bytes)
                #expect(reads.withLock { $0 } == max(1, (size + 999) / 1_000))
            }
        }
    }
}
