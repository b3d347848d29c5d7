import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementIngest
@testable import EntitlementModel
import EntitlementTestSupport

/// The pieces of a vendor API request that need no server: the config curl reads on its
/// standard input, URL credentials kept out of messages, `Retry-After`, and the request rate.
@Suite(.tags(.unit))
struct VendorAPIRequestTests {
    @Test func aFormBodyGoesOnStandardInputEscaped() {
        let request = APIRequest(.post, "https://oauth2.example/token", headers: [],
                                 body: .form([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", "a.b\"c\nd")]),
                                 credentialCheck: "x")
        let config = CurlConfig.text(request, timeout: 5, maxBytes: 10)
        #expect(config.contains(#"data-raw = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b%22c%0Ad""#))
        #expect(config.contains(#"header = "Content-Type: application/x-www-form-urlencoded""#))
        // A JSON body's line break cannot end the config line and start another option.
        let json = CurlConfig.text(APIRequest(.post, "https://x/", headers: [], body: .json(Array("{\"a\":\n\"@b\"}".utf8)), credentialCheck: "x"),
                                   timeout: 5, maxBytes: 10)
        #expect(json.contains(#"data-raw = "{\"a\":\n\"@b\"}""#))
        #expect(json.split(separator: "\n").allSatisfy { !$0.hasPrefix("\"@b") })
    }

    @Test func urlCredentialsAreNeverShown() {
        #expect(URLText.withoutCredentials("http://user:pw@127.0.0.1:8080/v1/x?a=b@c") == "http://…@127.0.0.1:8080/v1/x?a=b@c")
        #expect(URLText.withoutCredentials("https://api.stripe.com/v1/x?email=a@b") == "https://api.stripe.com/v1/x?email=a@b")
        let error = EntitlementError.vendorAPI(.unreachable(url: "http://user:s3cret@nowhere/v1", detail: "Could not resolve host: s3cret"))
        #expect(!error.description.contains("s3cret"))
        #expect(!EntitlementError.vendorAPI(.status(url: "http://u:s3cret@h/", code: 500)).description.contains("s3cret"))
    }

    @Test func retryAfterIsSecondsOnly() {
        #expect(VendorAPIClient.retryAfter("7") == 7)
        #expect(VendorAPIClient.retryAfter("") == nil)
        #expect(VendorAPIClient.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
        #expect(VendorAPIClient.retryAfter("-1") == nil)
    }

    @Test func theRateSpacesRequests() {
        let clock = RecordingPacing()
        let rate = RequestRate(perSecond: 4)
        for _ in 0..<5 { rate.wait(clock.pacing) }
        #expect(clock.slept == [0.25, 0.25, 0.25, 0.25])
    }
}

/// A `Pacing` whose sleeps are recorded and move its clock, never the wall clock's.
final class RecordingPacing: @unchecked Sendable {
    private let lock = NSLock()
    private var offset = 0.0
    private var sleeps: [Double] = []

    var slept: [Double] { lock.withLock { sleeps } }

    var pacing: Pacing {
        Pacing(now: { [self] in lock.withLock { offset } }, sleep: { [self] seconds in lock.withLock { sleeps.append(seconds); offset += seconds } })
    }
}
