import Testing
@testable import EntitlementImport
@testable import EntitlementJSON
import EntitlementTestSupport

/// Import's JWS shape test with `=` padding (docs/import.md section 2.1): padding
/// is allowed at the end of each segment, at most two, never alone or in the middle.
@Suite(.tags(.unit))
struct JWSShapeTests {
    @Test(arguments: [
        ("eyJh.eyJi.c2ln", true), ("eyJhbA==.eyJi.c2ln", true), ("eyJh.eyJiYw=.c2ln", true), ("eyJh.eyJi.c2lnbg==", true),
        ("eyJh.eyJi.", true), ("  eyJh.eyJi.c2ln\n", true),
        ("eyJh===.eyJi.c2ln", false), ("=.eyJi.c2ln", false), ("eyJh.=.c2ln", false), ("eyJh.eyJi.=", false),
        ("eyJh.ey=Ji.c2ln", false), ("eyJh..c2ln", false), ("eyJh.eyJi", false), ("eyJh.eyJi.c2ln.eHg", false),
        ("eyJh.eyJi.c2l+", false),
    ])
    func shape(_ text: String, _ expected: Bool) {
        #expect(JWS.looksLikeJWS(text) == expected)
    }

    @Test func paddedSegmentsDecodeForNoVerify() throws {
        let payload = try #require(JWS.payload(of: "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ==.c2ln"))
        #expect(payload["a"] == .int(1))
    }
}
