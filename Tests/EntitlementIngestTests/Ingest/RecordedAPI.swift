import Foundation
import EntitlementTestSupport

/// RevenueCat's REST API played back by lighttpd on 127.0.0.1: `GET /v1/subscribers/{id}` runs
/// the CGI script named after the id, which answers 401 unless `Authorization` carries
/// `RecordedAPI.key`, then the recorded answer. Stopped (and waited for) by `stop()` or on release.
final class RecordedAPI {
    static let key = "sk_test_refresh"
    let port: Int
    let directory: String
    private var pid: pid_t = 0

    var base: String { "http://127.0.0.1:\(port)" }

    static var available: Bool { WebServer.lighttpdPath != nil && WebServer.curlPath != nil }

    init(directory: String) throws {
        self.directory = directory
        port = WebServer.freePort()
        try FileManager.default.createDirectory(atPath: directory + "/subscribers", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/www", withIntermediateDirectories: true)
        let config = """
            server.modules = ("mod_cgi", "mod_alias")
            server.bind = "127.0.0.1"
            server.port = \(port)
            server.document-root = "\(directory)/www"
            server.errorlog = "\(directory)/error.log"
            alias.url = ("/v1/subscribers/" => "\(directory)/subscribers/")
            $HTTP["url"] =~ "^/v1/subscribers/" { cgi.assign = ("" => "") }

            """
        try config.write(toFile: directory + "/lighttpd.conf", atomically: true, encoding: .utf8)
        pid = try WebServer.spawn(WebServer.lighttpdPath!, ["-D", "-f", directory + "/lighttpd.conf"])
        try waitUntilListening()
    }

    deinit { stop() }

    /// Serves `body` (status 200 after the key check) for `user`; `status` other than 200 answers
    /// that instead, and `delay` seconds pass first.
    func serve(_ user: String, body: String, status: Int = 200, delay: Int = 0) {
        let bodyFile = directory + "/\(UUID().uuidString).body"
        writeFile(bodyFile, body)
        let script = """
            #!/bin/sh
            sleep \(delay)
            if [ "$HTTP_AUTHORIZATION" != "Bearer \(Self.key)" ]; then
              printf 'Status: 401\\r\\nContent-Type: application/json\\r\\n\\r\\n{"code": 7225, "message": "Invalid API key."}'
              exit 0
            fi
            printf 'Status: \(status)\\r\\nContent-Type: application/json\\r\\n\\r\\n'
            cat '\(bodyFile)'

            """
        let path = directory + "/subscribers/" + user
        writeFile(path, script)
        chmod(path, 0o755)
    }

    /// The recorded subscriber answer (Fixtures/refresh).
    static func fixture(_ name: String) -> String { readFile(repositoryRoot + "/Fixtures/refresh/" + name)! }

    /// SIGTERM, then SIGKILL after 5 s; always reaped.
    func stop() { WebServer.terminate(&pid) }

    private func waitUntilListening() throws { try WebServer.waitUntilListening(port: port, pid: &pid) }
}
