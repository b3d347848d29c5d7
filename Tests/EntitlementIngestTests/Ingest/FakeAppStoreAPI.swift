import Foundation
import Synchronization
@testable import EntitlementJSON
import EntitlementTestSupport
@testable import EntitlementTrust

/// The App Store Server API played by a `LoopbackHTTPServer`, checking each request as Apple
/// does: a bearer JWT whose header is ES256 with the key id, typ JWT, whose claims carry the
/// issuer, `aud` appstoreconnect-v1, the bundle id, `iat` (the run's injected clock, or near
/// the wall clock for the built binary) and `exp` at most 60 minutes later, and whose signature
/// verifies under the public half of the key pair the test made. Anything else: 401.
final class FakeAppStoreAPI: @unchecked Sendable {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "2X9R4HXF34"
    static let bundleID = "com.example"

    struct State {
        var routes: [String: [LoopbackHTTPServer.Response]] = [:]
        var requests: [LoopbackHTTPServer.Request] = []
        var refusals: [String] = []
    }

    /// The in-app purchase key: the tool signs with its private half (the `.p8`), Apple checks with the public one.
    let key = TestKey()
    let state = Mutex(State())
    /// The `iat` every token must carry; nil: within ten minutes of the wall clock.
    let issuedAt: Int64?
    private(set) var server: LoopbackHTTPServer!

    var base: String { server.base }

    init(issuedAt: Int64?) throws {
        self.issuedAt = issuedAt
        server = try LoopbackHTTPServer { [unowned self] request in answer(request) }
    }

    func stop() { server.stop() }

    /// Answers `METHOD target` with `responses` in turn, the last one for good.
    func route(_ method: String, _ target: String, _ responses: [LoopbackHTTPServer.Response]) {
        state.withLock { $0.routes["\(method) \(target)"] = responses }
    }

    func route(_ method: String, _ target: String, json body: String) {
        route(method, target, [LoopbackHTTPServer.Response(status: 200, body: body)])
    }

    var requests: [LoopbackHTTPServer.Request] { state.withLock { $0.requests } }
    var refusals: [String] { state.withLock { $0.refusals } }

    /// Writes the `.p8` (mode 0600) and a secrets file naming it with the test chain's root; returns the secrets path.
    func secrets(in directory: String, root: String, extra: [String: Any] = [:]) -> String {
        let keyFile = directory + "/AuthKey_\(Self.keyID).p8"
        writeFile(keyFile, key.pkcs8PEM)
        chmod(keyFile, 0o600)
        var entry: [String: Any] = ["issuer_id": Self.issuer, "key_id": Self.keyID, "private_key_file": keyFile,
                                    "bundle_id": Self.bundleID, "trust_roots": [root]]
        for (name, value) in extra { entry[name] = value }
        let path = directory + "/api-secrets.json"
        writeFile(path, IngestFixtures.json(["appstore": entry, "stripe": ["api_key": FakeAppStoreAPI.stripeKey]]))
        chmod(path, 0o600)
        return path
    }

    static let stripeKey = "rk_test_recover"

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        state.withLock { $0.requests.append(request) }
        if request.path.hasPrefix("/v1/") {
            guard request.headers["authorization"] == "Bearer \(Self.stripeKey)" else { return refuse("stripe: wrong bearer") }
        } else if let problem = check(request.headers["authorization"]) {
            return refuse(problem)
        }
        return state.withLock { state -> LoopbackHTTPServer.Response in
            let key = "\(request.method) \(request.target)"
            guard var queue = state.routes[key], let first = queue.first else {
                return LoopbackHTTPServer.Response(status: 404, body: #"{"errorCode": 4040010, "errorMessage": "Transaction id not found."}"#)
            }
            if queue.count > 1 {
                queue.removeFirst()
                state.routes[key] = queue
            }
            return first
        }
    }

    private func refuse(_ why: String) -> LoopbackHTTPServer.Response {
        state.withLock { $0.refusals.append(why) }
        return LoopbackHTTPServer.Response(status: 401, body: "Unauthenticated")
    }

    /// Why the `Authorization` header is not a JWT Apple accepts, or nil.
    func check(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return "not a compact JWT" }
        guard case .object(let header)? = try? JSONParser.parse(JWSText.decode(parts[0])),
              case .object(let claims)? = try? JSONParser.parse(JWSText.decode(parts[1])) else { return "header or claims not JSON" }
        guard header["alg"] == .string("ES256"), header["kid"] == .string(Self.keyID), header["typ"] == .string("JWT") else { return "header \(header)" }
        guard claims["iss"] == .string(Self.issuer), claims["aud"] == .string("appstoreconnect-v1"), claims["bid"] == .string(Self.bundleID) else {
            return "claims \(claims)"
        }
        guard case .number(let iatText)? = claims["iat"], case .number(let expText)? = claims["exp"], let iat = Int64(iatText), let exp = Int64(expText) else {
            return "no iat or exp"
        }
        if let issuedAt {
            guard iat == issuedAt else { return "iat \(iat), expected \(issuedAt)" }
        } else {
            guard abs(iat - Int64(Date().timeIntervalSince1970)) < 600 else { return "iat \(iat) far from now" }
        }
        guard exp > iat, exp - iat <= 3600 else { return "exp \(exp) more than 60 minutes after iat \(iat)" }
        do {
            try ES256.verify(signature: JWSText.decode(parts[2]), message: Array("\(parts[0]).\(parts[1])".utf8), key: key.handle)
        } catch {
            return "signature: \(error)"
        }
        return nil
    }
}
