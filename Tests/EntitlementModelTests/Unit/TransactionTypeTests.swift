import Foundation
import Testing
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// `TransactionType` answers `is`, `isKnown` and `isSubscription` from the kind it finds
    /// in the name's bytes once; every answer is the one comparing the names as `String`s gives.
    struct TransactionTypeTests {
        static let renewing = ["subscription_started", "subscription_renewed", "trial_started", "intro_started", "intro_renewed"]

        /// The documented names, near misses of each (a byte changed, dropped or added, another
        /// case, a prefix), canonically equivalent spellings and names of other vendors.
        static var names: [String] {
            var names = TransactionType.known.map(\.rawValue) + ["", "x", "bundle", "something_new", "K", "\u{212A}", "e\u{301}", "\u{E9}"]
            for name in TransactionType.known.map(\.rawValue) {
                names += [name.uppercased(), String(name.dropLast()), name + "_", String(name.prefix(5)), name + "\u{301}",
                          name.replacingOccurrences(of: "_", with: "-"), String(name.reversed())]
            }
            return names
        }

        @Test func kindsAnswerAsTheNamesCompare() {
            let known = TransactionType.known.map(\.rawValue)
            let others = [TransactionType(rawValue: "bundle"), TransactionType(rawValue: "\u{212A}")]
            for name in Self.names {
                let type = TransactionType(rawValue: name)
                #expect(type.isKnown == known.contains(name), "\(name)")
                #expect(type.isSubscription == Self.renewing.contains(name), "\(name)")
                for other in TransactionType.known + others {
                    #expect(type.is(other) == (name == other.rawValue), "\(name) is \(other.rawValue)")
                    #expect((type == other) == (name == other.rawValue))
                    if type == other { #expect(type.hashValue == other.hashValue) }
                }
            }
        }

        /// A spelling Swift holds equal to an undocumented name still compares equal to it.
        @Test func canonicalEquivalenceOfOtherNames() {
            #expect(TransactionType(rawValue: "K").is(TransactionType(rawValue: "\u{212A}")))
            #expect(TransactionType(rawValue: "caf\u{E9}") == TransactionType(rawValue: "cafe\u{301}"))
            #expect(!TransactionType(rawValue: "caf\u{E9}").isKnown)
        }
    }
}
