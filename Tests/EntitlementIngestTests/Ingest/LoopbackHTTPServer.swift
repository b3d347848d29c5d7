import Foundation
import Synchronization
import Glibc

/// A small HTTP/1.1 server on 127.0.0.1 that tests start in-process: one connection at a time,
/// `Connection: close`, the handler decides every answer. It stands in for a vendor's API, so
/// the handler checks each request as the vendor would (`FakeAppStoreAPI`).
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        /// The path with its query, as sent.
        var target: String
        /// Header names in lower case.
        var headers: [String: String]
        var body: [UInt8]

        var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        var query: String? { target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) }
    }

    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: String = ""
        /// Seconds to wait before answering (a slow vendor).
        var delay: Double = 0
    }

    private let listener: Int32
    let port: Int
    private let handler: @Sendable (Request) -> Response
    private let done = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    var base: String { "http://127.0.0.1:\(port)" }

    init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and waits for the serving thread.
    func stop() {
        let first = done.withLock { value -> Bool in
            defer { value = true }
            return !value
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        finished.wait()
    }

    private func serve() {
        while !done.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            handle(connection)
            close(connection)
        }
        finished.signal()
    }

    private func handle(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            data += buffer[0..<count]
            if headerEnd == nil, let range = Self.find([13, 10, 13, 10], in: data) {
                headerEnd = range + 4
                let head = String(decoding: data[0..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst() where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let end = headerEnd, data.count >= end + contentLength { break }
        }
        let end = headerEnd!
        let lines = String(decoding: data[0..<(end - 4)], as: UTF8.self).split(separator: "\r\n").map(String.init)
        let first = lines.first?.split(separator: " ").map(String.init) ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(method: first.first ?? "", target: first.count > 1 ? first[1] : "", headers: headers,
                              body: Array(data[end..<(end + contentLength)]))
        let response = handler(request)
        if response.delay > 0 { usleep(UInt32(response.delay * 1_000_000)) }
        var text = "HTTP/1.1 \(response.status) X\r\nContent-Type: application/json\r\nContent-Length: \(response.body.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n" + response.body).utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            sent += count
        }
    }

    private static func find(_ needle: [UInt8], in data: [UInt8]) -> Int? {
        guard data.count >= needle.count else { return nil }
        for index in 0...(data.count - needle.count) where data[index] == needle[0] && Array(data[index..<(index + needle.count)]) == needle { return index }
        return nil
    }
}
