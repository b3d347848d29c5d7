import Foundation
import Glibc

/// A request as the fake API received it: method, path, decoded query, headers (names in
/// lower case) and body.
struct FakeRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    var headers: [String: String]
    var body: [UInt8]

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The form fields of an `application/x-www-form-urlencoded` body.
    var form: [String: String] { FakeRequest.decodeQuery(bodyText) }

    static func decodeQuery(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            out[name] = value
        }
        return out
    }
}

/// What the fake API answers: a status, headers and a body; or, after `delay` seconds, the
/// same; or a chunked body of `chunkedBytes` bytes without a length (an answer that never ends,
/// as far as a client that stops early can tell).
struct FakeAnswer: Sendable {
    var status = 200
    var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
    var body: [UInt8] = []
    var delay: Double = 0
    var chunkedBytes: Int?

    static func json(_ text: String, status: Int = 200) -> FakeAnswer { FakeAnswer(status: status, body: Array(text.utf8)) }

    static func status(_ code: Int, _ body: String = "{}", headers: [(name: String, value: String)] = []) -> FakeAnswer {
        FakeAnswer(status: code, headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8))
    }
}

/// An HTTP/1.1 server on 127.0.0.1 (a port of its own) that the tests start: each connection
/// on a thread of its own, one request per connection (`Connection: close`), every request
/// recorded, answered by `handler`. Real TCP and a real curl on the other side.
final class FakeHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let handler: @Sendable (FakeRequest) -> FakeAnswer
    private let lock = NSLock()
    private var recorded: [FakeRequest] = []
    private var stopped = false

    var base: String { "http://127.0.0.1:\(port)" }
    var requests: [FakeRequest] { lock.withLock { recorded } }

    init(handler: @escaping @Sendable (FakeRequest) -> FakeAnswer) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 128) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// Stops accepting (connections being answered finish on their own).
    func stop() {
        let first = lock.withLock { () -> Bool in defer { stopped = true }; return !stopped }
        if first { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = Self.read(connection) else { return }
        lock.withLock { recorded.append(request) }
        let answer = handler(request)
        if answer.delay > 0 { usleep(UInt32(answer.delay * 1_000_000)) }
        var head = "HTTP/1.1 \(answer.status) Fake\r\nConnection: close\r\n"
        for header in answer.headers { head += "\(header.name): \(header.value)\r\n" }
        if let total = answer.chunkedBytes {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            guard Self.send(connection, Array(head.utf8)) else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 65536)
            var sent = 0
            while sent < total {
                guard Self.send(connection, Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8)) else { return }
                sent += chunk.count
            }
            _ = Self.send(connection, Array("0\r\n\r\n".utf8))
            return
        }
        head += "Content-Length: \(answer.body.count)\r\n\r\n"
        _ = Self.send(connection, Array(head.utf8) + answer.body)
    }

    private static func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// The request line, headers and a `Content-Length` body; nil for anything else.
    private static func read(_ connection: Int32) -> FakeRequest? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var contentLength = 0
        while true {
            if let end = headEnd, data.count >= end + contentLength { break }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress!, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            data += buffer[0..<count]
            if headEnd == nil, let range = findHeadEnd(data) {
                headEnd = range
                let head = String(decoding: data[..<range], as: UTF8.self)
                for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        let end = headEnd!
        let lines = String(decoding: data[..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let first = lines[0].split(separator: " ")
        guard first.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(first[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return FakeRequest(method: String(first[0]), path: String(parts[0]), query: parts.count > 1 ? FakeRequest.decodeQuery(String(parts[1])) : [:],
                           headers: headers, body: Array(data[end..<(end + contentLength)]))
    }

    private static func findHeadEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4) where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
