import Foundation

/// The vendors' APIs played on 127.0.0.1 by a `FakeHTTPServer`, for `refresh` and the other
/// API commands: routes with scripted answers, and under each path prefix the check the vendor
/// itself makes of a request (`FakeVendorChecks`: Stripe's bearer, Adapty's Api-Key, Google's
/// assertion then its access token, …). A request that fails its check gets the vendor's
/// refusal and never reaches the route. Every request is recorded.
///
/// New vendors' endpoints are added with `require` (the check) and `on` (the answers).
final class FakeVendorAPI: @unchecked Sendable {
    typealias Check = @Sendable (FakeRequest) -> FakeAnswer?
    typealias Handler = @Sendable (FakeRequest) -> FakeAnswer

    private struct Route {
        var method: String
        var path: String
        var prefix: Bool
        var answers: [FakeAnswer]
        var handler: Handler?
        var served = 0
    }

    private let lock = NSLock()
    private var routes: [Route] = []
    private var checks: [(prefix: String, check: Check)] = []
    private var server: FakeHTTPServer!

    init() throws {
        let box = WeakBox()
        server = try FakeHTTPServer { request in box.api?.answer(request) ?? .status(503) }
        box.api = self
    }

    var base: String { server.base }
    var requests: [FakeRequest] { server.requests }

    /// The requests to `path` (query left out).
    func requests(to path: String) -> [FakeRequest] { requests.filter { $0.path == path } }

    func stop() { server.stop() }

    /// Requests whose path starts with `prefix` must pass `check` first.
    func require(_ prefix: String, _ check: @escaping Check) {
        lock.withLock { checks.append((prefix, check)) }
    }

    /// `method path` (or any path under it with `prefix`) answers `answers` in turn, then the last again.
    func on(_ method: String, _ path: String, prefix: Bool = false, _ answers: FakeAnswer...) {
        lock.withLock {
            routes.removeAll { $0.method == method && $0.path == path }
            routes.append(Route(method: method, path: path, prefix: prefix, answers: answers))
        }
    }

    /// `method path` (or under it) answers what `handler` makes of each request.
    func on(_ method: String, _ path: String, prefix: Bool = false, handler: @escaping Handler) {
        lock.withLock {
            routes.removeAll { $0.method == method && $0.path == path }
            routes.append(Route(method: method, path: path, prefix: prefix, answers: [], handler: handler))
        }
    }

    private func answer(_ request: FakeRequest) -> FakeAnswer {
        let matching = lock.withLock { checks.filter { request.path.hasPrefix($0.prefix) }.map(\.check) }
        for check in matching { if let refusal = check(request) { return refusal } }
        let found: (Handler?, FakeAnswer?) = lock.withLock {
            guard let index = routes.lastIndex(where: { $0.method == request.method && ($0.prefix ? request.path.hasPrefix($0.path) : request.path == $0.path) }) else {
                return (nil, nil)
            }
            if let handler = routes[index].handler { return (handler, nil) }
            let answers = routes[index].answers
            defer { routes[index].served += 1 }
            return (nil, answers.isEmpty ? nil : answers[min(routes[index].served, answers.count - 1)])
        }
        if let handler = found.0 { return handler(request) }
        return found.1 ?? .status(404, #"{"error": {"message": "no such route in the fake API"}}"#)
    }

    private final class WeakBox: @unchecked Sendable { weak var api: FakeVendorAPI? }
}
