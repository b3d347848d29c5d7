import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// One set of id rules for every way an id enters (UserID).
    struct UserIDTests {
        @Test func boundaries() throws {
            #expect(throws: UserID.Problem.empty) { try UserID.validate("") }
            #expect(try UserID.validate(String(repeating: "x", count: 4096)).utf8.count == 4096)
            #expect(throws: UserID.Problem.tooLong(bytes: 4097)) { try UserID.validate(String(repeating: "x", count: 4097)) }
            // 1,366 three-byte characters are 4,098 bytes: the limit is in bytes, not characters.
            #expect(throws: UserID.Problem.tooLong(bytes: 4098)) { try UserID.validate(String(repeating: "名", count: 1366)) }
            #expect(throws: UserID.Problem.invalidUTF8) { try UserID.validate(bytes: [0xFF, 0xFE][...]) }
            #expect(try UserID.validateNew("José Ñ 名前 🎉") == "José Ñ 名前 🎉")
            #expect(throws: UserID.Problem.invisibleControl("a\u{202E}b", scalar: 0x202E)) { try UserID.validateNew("a\u{202E}b") }
            #expect(try UserID.validate("a\u{202E}b") == "a\u{202E}b", "existing ids stay readable")
        }

        /// Property: over random byte strings, the byte check agrees with Swift's own UTF-8
        /// validation, never repairs, and every id it accepts round-trips to the same bytes.
        @Test func bytesAreValidatedNeverRepaired() {
            var random = SplitMix64(seed: 8_675_309)
            for _ in 0..<5_000 {
                let count = Int(random.next() % 12)
                let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let result = Result { () throws(UserID.Problem) in try UserID.validate(bytes: bytes[...]) }
                switch result {
                case .success(let id):
                    #expect(Array(id.utf8) == bytes)
                case .failure(let problem):
                    #expect(bytes.isEmpty ? problem == .empty : problem == .invalidUTF8, "\(bytes)")
                    #expect(bytes.isEmpty || String(validating: bytes, as: UTF8.self) == nil)
                }
            }
        }

        /// Property: a new id is refused exactly when it holds a scalar the terminal escaper would escape.
        @Test func newIDsAreRefusedExactlyWhenTheyWouldBeEscaped() {
            var random = SplitMix64(seed: 42)
            let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "é", "名", "\u{0}", "\u{1B}", "\t", "\n", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}",
                                          "\u{200E}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{1F389}"]
            for _ in 0..<5_000 {
                var id = ""
                for _ in 0..<(1 + Int(random.next() % 6)) { id.unicodeScalars.append(pool[Int(random.next() % UInt64(pool.count))]) }
                let refused = (try? UserID.validateNew(id)) == nil
                #expect(refused == (Terminal.escape(id) != id), "\(Terminal.escape(id))")
            }
        }
    }
}
