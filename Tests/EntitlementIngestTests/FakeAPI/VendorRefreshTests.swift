import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `refresh --vendor stripe|adapty|googleplay` (and `--stdin`) against the vendors' APIs played
/// on 127.0.0.1 by `FakeVendorAPI`, which checks each request as the vendor would: Stripe's
/// bearer, Adapty's Api-Key, Google's RS256 assertion (verified with the public half of a key
/// pair the test makes) and then its access token. curl is the client, as in production; the
/// back-off waits go through a recording `Pacing`, never the wall clock.
@Suite(.tags(.cli), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.curlPath != nil, "needs curl (scripts/ensure-tools.sh)"))
struct VendorRefreshTests {
    static let stripeKey = "rk_test_refresh_0123456789"
    static let adaptyKey = "secret_live_refresh_abcdef"
    static let packageName = "com.example.app"
    static let stripeConfig = readFile(repositoryRoot + "/Fixtures/import/stripe/config.json")!
    static func fixture(_ path: String) -> String { readFile(repositoryRoot + "/Fixtures/" + path)! }

    /// A store, the API, and a secrets file (0600) with every vendor's credentials; Google's
    /// token endpoint is a server of its own, as `token_uri` names it.
    struct Setup {
        let directory = TemporaryDirectory()
        let store: String
        let secrets: String
        let api: FakeVendorAPI
        let tokens: FakeVendorAPI
        let google = FakeGoogleAuth()
        let pacing = RecordingPacing()
        let accountFile: String

        init(accountMode: mode_t = 0o600) throws {
            store = directory.store(config: VendorRefreshTests.stripeConfig)
            api = try FakeVendorAPI()
            tokens = try FakeVendorAPI()
            google.install(on: tokens)
            api.require("/v1/", FakeVendorChecks.stripe(VendorRefreshTests.stripeKey))
            api.require("/api/v2/server-side-api/", FakeVendorChecks.adapty(VendorRefreshTests.adaptyKey))
            api.require("/androidpublisher/", FakeVendorChecks.googleBearer(google))
            accountFile = directory.path + "/play-service-account.json"
            writeFile(accountFile, google.serviceAccountJSON(tokenURI: tokens.base + google.tokenPath))
            chmod(accountFile, accountMode)
            secrets = directory.path + "/secrets.json"
            writeFile(secrets, IngestFixtures.json([
                "stripe": ["signing_secrets": ["whsec_x"], "api_key": VendorRefreshTests.stripeKey],
                "adapty": ["authorization": "a", "api_key": VendorRefreshTests.adaptyKey],
                "googleplay": ["push_token": "p", "package_name": VendorRefreshTests.packageName, "service_account_file": accountFile],
            ]))
            chmod(secrets, 0o600)
        }

        func refresh(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) -> CLIResult {
            runCLI(["refresh"] + arguments + ["--api-base", api.base, "--store", store, "--secrets", secrets], stdin: stdin,
                   environment: environment, pacing: pacing.pacing)
        }

        /// The profile file's text ("" when there is none).
        func profile(_ user: String) -> String {
            let files = FileManager.default.enumerator(atPath: store + "/profiles")?.allObjects as? [String] ?? []
            return files.first { ($0 as NSString).lastPathComponent == user + ".json" }.flatMap { readFile(store + "/profiles/" + $0) } ?? ""
        }
    }

    static func stripeList(_ ids: [String], hasMore: Bool, customer: String = "cus_Active01") -> String {
        let template = fixture("import/stripe/subscription-active.json")
        let items = ids.map { template.replacingOccurrences(of: "sub_Active01", with: $0).replacingOccurrences(of: "cus_Active01", with: customer) }
        return #"{"object": "list", "url": "/v1/subscriptions", "has_more": \#(hasMore), "data": [\#(items.joined(separator: ","))]}"#
    }

    @Test func stripeFollowsEveryPageWithTheBearerKey() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", handler: { request in
            guard request.query["customer"] == "cus_Active01", request.query["status"] == "all", request.query["limit"] == "100" else { return .status(400) }
            return request.query["starting_after"] == "sub_A1" ? .json(VendorRefreshTests.stripeList(["sub_A2"], hasMore: false)) : .json(VendorRefreshTests.stripeList(["sub_A1"], hasMore: true))
        })
        let result = setup.refresh(["alice", "--vendor", "stripe", "--stripe-customer", "cus_Active01"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "Refreshed alice from Stripe: new profile, 2 transactions added, 2 renewal infos changed.\n")
        #expect(setup.api.requests(to: "/v1/subscriptions").map { $0.query["starting_after"] } == [nil, "sub_A1"])
        #expect(setup.profile("alice").contains("sub_A1") && setup.profile("alice").contains("sub_A2"))
        // The same answers again change nothing; the key never reaches the store.
        let again = setup.refresh(["alice", "--vendor", "stripe", "--stripe-customer", "cus_Active01"])
        #expect(again.stdout == "Refreshed alice from Stripe: no change.\n")
        #expect(!setup.profile("alice").contains(Self.stripeKey))
        #expect(runCLI(["verify", "--store", setup.store]).exitCode == 0)
    }

    @Test func aCustomerWithoutStripeIdAsksNothing() throws {
        let setup = try Setup()
        let result = setup.refresh(["alice", "--vendor", "stripe"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--stripe-customer"))
        #expect(setup.api.requests.isEmpty)
    }

    @Test func aRefusedKeyIsExit4NamingWhatToCheck() throws {
        let setup = try Setup()
        writeFile(setup.secrets, IngestFixtures.json(["stripe": ["api_key": "rk_test_wrong"], "adapty": ["api_key": "secret_wrong"]]))
        let stripe = setup.refresh(["cus_Active01", "--vendor", "stripe"])
        #expect(stripe.exitCode == 4)
        #expect(stripe.stderr.contains("answered HTTP 401 (unauthorized)") && stripe.stderr.contains("check stripe.api_key"))
        #expect(!stripe.stderr.contains("rk_test_wrong"))
        let adapty = setup.refresh(["alice", "--vendor", "adapty"])
        #expect(adapty.exitCode == 4)
        #expect(adapty.stderr.contains("check adapty.api_key"))
    }

    @Test func adaptySendsItsApiKeyAndTheCustomerHeader() throws {
        let setup = try Setup()
        let profile = Self.fixture("import/adapty/profile-active.json").replacingOccurrences(of: "adapty-active@example.com", with: "alice")
        setup.api.on("GET", "/api/v2/server-side-api/profile/", handler: { request in
            request.headers["adapty-customer-user-id"] == "alice" ? .json(#"{"data": \#(profile)}"#) : .status(404)
        })
        let result = setup.refresh(["alice", "--vendor", "adapty"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Refreshed alice from Adapty: new profile"))
        #expect(setup.api.requests.first?.headers["authorization"] == "Api-Key \(Self.adaptyKey)")
    }

    /// A profile holding the Play purchase `gp-token-active` (imported as a document would be).
    static func importPlayPurchase(_ setup: Setup, user: String = "bob") {
        let imported = runCLI(["import", repositoryRoot + "/Fixtures/import/googleplay/purchase-active.json", "--format", "googleplay",
                               "--user", user, "--store", setup.store])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
    }

    static func playAnswer(state: String) -> String {
        var object = try! JSONSerialization.jsonObject(with: Data(fixture("import/googleplay/purchase-canceled.json").utf8)) as! [String: Any]
        object["purchaseToken"] = nil
        object["subscriptionState"] = state
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func googlePlayAsksForATokenWithASignedAssertionThenEachPurchase() throws {
        let setup = try Setup()
        Self.importPlayPurchase(setup)
        let path = "/androidpublisher/v3/applications/\(Self.packageName)/purchases/subscriptionsv2/tokens/gp-token-active"
        setup.api.on("GET", path, .json(Self.playAnswer(state: "SUBSCRIPTION_STATE_CANCELED")))
        let result = setup.refresh(["bob", "--vendor", "googleplay", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"changed\": true"))
        // One verified assertion, at the key file's token_uri (not --api-base), for at most an hour.
        #expect(setup.tokens.requests(to: "/token").count == 1)
        let claims = try #require(setup.google.claims.first)
        #expect(claims["aud"] as? String == setup.tokens.base + "/token")
        #expect(claims["iat"] as? Int == Int(demoDate.timeIntervalSince1970))
        #expect(setup.api.requests(to: path).first?.headers["authorization"] == "Bearer ya29.fake-1")
        #expect(setup.profile("bob").contains("SUBSCRIPTION_STATE_CANCELED"))
    }

    @Test func anAssertionUnderAnotherKeyIsRefused() throws {
        let setup = try Setup()
        writeFile(setup.accountFile, setup.google.serviceAccountJSON(tokenURI: setup.tokens.base + "/token", privatePEM: TestRSAKey.other.privatePEM))
        let result = setup.refresh(["bob", "--vendor", "googleplay", "--purchase-token", "gp-token-active"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("HTTP 400") && result.stderr.contains("googleplay.service_account_file"))
        #expect(setup.api.requests.isEmpty)
    }

    @Test(arguments: [0o644, 0o640, 0o604])
    func aKeyFileOthersMayReadIsExit2AndAsksNothing(mode: Int) throws {
        let setup = try Setup(accountMode: mode_t(mode))
        let result = setup.refresh(["bob", "--vendor", "googleplay", "--purchase-token", "t"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("refusing googleplay.service_account_file \(setup.accountFile)"))
        #expect(setup.api.requests.isEmpty && setup.tokens.requests.isEmpty)
    }

    @Test func tooManyRequestsWaitsAsRetryAfterSays() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", .status(429, headers: [("Retry-After", "7")]), .json(Self.stripeList(["sub_A1"], hasMore: false)))
        let result = setup.refresh(["cus_Active01", "--vendor", "stripe"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(setup.pacing.slept == [7])
        // Without Retry-After: 1, 2, 4 s, then exit 6; a Retry-After past --timeout: exit 6 at once.
        let busy = try Setup()
        busy.api.on("GET", "/v1/subscriptions", .status(429))
        let given = busy.refresh(["cus_Active01", "--vendor", "stripe"])
        #expect(given.exitCode == 6)
        #expect(busy.pacing.slept == [1, 2, 4])
        #expect(given.stderr.contains("HTTP 429"))
        let late = try Setup()
        late.api.on("GET", "/v1/subscriptions", .status(429, headers: [("Retry-After", "3600")]))
        #expect(late.refresh(["cus_Active01", "--vendor", "stripe"]).exitCode == 6)
        #expect(late.pacing.slept.isEmpty)
    }

    @Test func aServerErrorIsRetriedTwice() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", .status(500), .json(Self.stripeList(["sub_A1"], hasMore: false)))
        #expect(setup.refresh(["cus_Active01", "--vendor", "stripe"]).exitCode == 0)
        #expect(setup.pacing.slept == [1])
        let failing = try Setup()
        failing.api.on("GET", "/v1/subscriptions", .status(503))
        let result = failing.refresh(["cus_Active01", "--vendor", "stripe"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("HTTP 503"))
        #expect(failing.api.requests.count == 3 && failing.pacing.slept == [1, 2])
    }

    @Test func noAnswerInTimeIsExit6() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", FakeAnswer(body: Array(Self.stripeList([], hasMore: false).utf8), delay: 3))
        let result = setup.refresh(["cus_Active01", "--vendor", "stripe", "--timeout", "1"])
        #expect(result.exitCode == 6)
        #expect(result.stderr.contains("did not answer within 1 s"))
    }

    @Test func anEndlessChunkedAnswerStopsAtTheLimit() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", FakeAnswer(chunkedBytes: 1 << 30))
        let result = setup.refresh(["cus_Active01", "--vendor", "stripe"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("more than 16 MiB"), "\(result.stderr)")
        #expect(setup.profile("cus_Active01").isEmpty)
    }

    @Test func anAnswerNotInTheDocumentedShapeWritesNothing() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", .json(#"{"object": "list", "data": "nope"}"#))
        let result = setup.refresh(["cus_Active01", "--vendor", "stripe"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("documented shape"))
    }

    @Test func urlCredentialsAreNeverPrinted() throws {
        let setup = try Setup()
        let base = setup.api.base.replacingOccurrences(of: "http://", with: "http://user:pa55word@")
        setup.api.on("GET", "/v1/subscriptions", .status(404))
        let result = runCLI(["refresh", "cus_Active01", "--vendor", "stripe", "--api-base", base, "--store", setup.store, "--secrets", setup.secrets])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("http://…@127.0.0.1"))
        #expect(!(result.stdout + result.stderr).contains("pa55word"))
    }

    @Test func stdinRefreshesEachCustomerAtTheRateAndSummarizes() throws {
        let setup = try Setup()
        setup.api.on("GET", "/v1/subscriptions", handler: { request in
            let customer = request.query["customer"] ?? ""
            return customer == "cus_Gone" ? .status(404) : .json(VendorRefreshTests.stripeList(["sub_" + customer.dropFirst(4)], hasMore: false, customer: customer))
        })
        let result = setup.refresh(["--stdin", "--vendor", "stripe", "--rate", "4"], stdin: "# customers\ncus_A\ncus_Gone\n\ncus_B\n cus_C\n")
        #expect(result.exitCode == 4)
        #expect(result.stdout.hasPrefix("Refreshed 3 Stripe customers: 2 changed, 0 unchanged, 2 failed.\n"))
        #expect(result.stdout.contains("failed: cus_Gone (line 3): ") && result.stdout.contains("failed: line 6: "))
        #expect(setup.pacing.slept == [0.25, 0.25])
        let again = setup.refresh(["--stdin", "--vendor", "stripe"], stdin: "cus_A\ncus_B\n")
        #expect(again.exitCode == 0)
        #expect(again.stdout == "Refreshed 2 Stripe customers: 0 changed, 2 unchanged, 0 failed.\n")
    }

    @Test(.enabled(if: Binary.exists, "needs the built binary (ENTITLEMENT_BIN)"))
    func noSecretIsInAnyProcessArguments() throws {
        let setup = try Setup()
        Self.importPlayPurchase(setup)
        setup.api.on("GET", "/v1/subscriptions", .json(Self.stripeList(["sub_A1"], hasMore: false)))
        setup.api.on("GET", "/androidpublisher/v3/applications/\(Self.packageName)/purchases/subscriptionsv2/tokens/gp-token-active",
                     .json(Self.playAnswer(state: "SUBSCRIPTION_STATE_ACTIVE")))
        // A curl stand-in first on PATH: it records its arguments, then runs the real curl.
        let bin = setup.directory.path + "/bin", log = setup.directory.path + "/argv.log"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        writeFile(bin + "/curl", "#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" >> '\(log)'\nexec \(WebServer.curlPath!) \"$@\"\n")
        chmod(bin + "/curl", 0o755)
        // The built binary, whose PATH finds the stand-in (posix_spawnp searches the caller's PATH).
        let environment = ["PATH": bin + ":/usr/bin:/bin"]
        for arguments in [["cus_Active01", "--vendor", "stripe"], ["bob", "--vendor", "googleplay"]] {
            let run = try Binary.run(["refresh"] + arguments + ["--api-base", setup.api.base, "--store", setup.store, "--secrets", setup.secrets],
                                     environment: environment)
            #expect(run.exitCode == 0, "\(run.stderr)")
        }
        let argv = readFile(log) ?? ""
        #expect(argv.components(separatedBy: "\n").filter { $0.hasSuffix("/curl") }.count == 3)  // Stripe, Google's token, Play
        let assertion = try #require(setup.tokens.requests.first?.form["assertion"])
        for secret in [Self.stripeKey, "ya29.fake-1", assertion, setup.google.keyID, "PRIVATE KEY"] {
            #expect(!argv.contains(secret), "\(secret) on a command line")
        }
    }
}
