import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// Profile file names (docs/store-format.md, "Profile file names") and the SHA-256 behind them.
    struct ModelTests {
        // MARK: ProfileFileName

        @Test(arguments: [
            ("alice@example.com", "alice@example.com"), ("42", "42"), ("../etc/passwd", "%2E.%2Fetc%2Fpasswd"),
            ("José Ñ", "Jos%C3%A9%20%C3%91"),  // the documented examples
            ("AZaz09-_.@+", "AZaz09-_.@+"), ("a/b", "a%2Fb"), ("%", "%25"), ("%2F", "%252F"), ("~", "%7E"), ("\u{0}", "%00"),
            ("a\u{0}b", "a%00b"), (".", "%2E"), ("..", "%2E."), ("...", "%2E.."), (".hidden", "%2Ehidden"), ("a.b.", "a.b."),
            ("a/../b", "a%2F..%2Fb"), ("\\", "%5C"), ("C:", "C%3A"), ("😀", "%F0%9F%98%80"), ("a b", "a%20b"), ("\n", "%0A"),
            ("\u{7F}", "%7F"), ("*?<>|\"'", "%2A%3F%3C%3E%7C%22%27"),
        ])
        func escaping(id: String, expected: String) {
            #expect(ProfileFileName.name(for: id) == expected)
        }

        @Test func idsUpTo200EscapedBytesKeepTheirEscapedName() {
            #expect(ProfileFileName.name(for: String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
            let slashes = String(repeating: "/", count: 66) + "ab"  // 66 × 3 + 2 = 200 bytes once escaped
            #expect(ProfileFileName.name(for: slashes) == String(repeating: "%2F", count: 66) + "ab")
        }

        @Test(arguments: [
            String(repeating: "x", count: 201), String(repeating: "/", count: 67), String(repeating: "é", count: 34),
            String(repeating: "a", count: 199) + "/", String(repeating: "y", count: 4096),
        ])
        func longerNamesAreTildeAndSHA256OfTheID(id: String) {
            let name = ProfileFileName.name(for: id)
            #expect(name == "~" + SHA256.hexDigest(Array(id.utf8)))
            #expect(name.count == 65)
            #expect(name.dropFirst().allSatisfy { "0123456789abcdef".contains($0) })
        }

        @Test func hashedNameOfAKnownID() {
            #expect(ProfileFileName.name(for: String(repeating: "x", count: 201)) == "~84a0678c90937f5dcf9994d5866668da6b995109c8ad845410559b48a4ecafed")
        }

        static let trickyIDs: [String] = {
            var ids = [
                "a", "A", "alice", "Alice", ".", "..", "...", "%2E", ".a", "%2Ea", "/", "%2F", "%", "%25", "%252F", "~", "%7E",
                "a b", "a%20b", "a+b", "a b ", "\u{0}", "%00", "é", "e\u{301}", "%C3%A9", "😀", "\\", "a/b", "a%2Fb", "-", "_", "@", "+",
                "con", "CON", "nul.txt", "alice.json", "alice@example.com", "alice@example.com.", "\u{202E}evil", "\n", "\t", " ",
            ]
            for count in [199, 200, 201, 202, 300] {
                ids.append(String(repeating: "x", count: count))
                ids.append(String(repeating: "x", count: count - 1) + "y")
            }
            for count in [66, 67, 68] { ids.append(String(repeating: "/", count: count)) }
            let hashed = "~" + SHA256.hexDigest(Array(String(repeating: "x", count: 201).utf8))
            ids.append(hashed)  // an id spelled like a hashed name still gets an escaped name
            return ids
        }()

        @Test func namesAreOneToOne() {
            // Compared as bytes: Swift's String == would merge "é" with "e\u{301}", which are two ids.
            let names = Set(Self.trickyIDs.map { Array(ProfileFileName.name(for: $0).utf8) })
            #expect(names.count == Set(Self.trickyIDs.map { Array($0.utf8) }).count)
            #expect(names.count == Self.trickyIDs.count)
        }

        @Test(arguments: trickyIDs)
        func namesAreSafeFileNames(id: String) {
            let name = ProfileFileName.name(for: id)
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.@+%~".utf8)
            #expect(!name.isEmpty)
            #expect(!name.contains("/"))
            #expect(!name.hasPrefix("."))
            #expect(name.utf8.allSatisfy(allowed.contains))
            #expect(name.utf8.count <= ProfileFileName.maximumEscapedLength)
        }

        @Test func tildeOnlyStartsHashedNames() {
            for id in Self.trickyIDs {
                let name = ProfileFileName.name(for: id)
                #expect(!name.dropFirst().contains("~"))
                if name.hasPrefix("~") { #expect(name == "~" + SHA256.hexDigest(Array(id.utf8))) }
            }
        }

        // MARK: SHA-256

        @Test(arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
            ("José Ñ", "5b7ec28bf640b3bf5a88a7c73e049122c6994b63935adc791ce20fc624dbda40"),
        ])
        func sha256KnownVectors(text: String, digest: String) {
            #expect(SHA256.hexDigest(Array(text.utf8)) == digest)
            #expect(SHA256.hexDigest(text.utf8) == digest)
        }

        @Test(arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
            (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
            (1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ])
        func sha256PaddingBoundaries(count: Int, digest: String) {
            #expect(SHA256.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: count)) == digest)
        }
    }
}
