
/// One request to a vendor's API: method, URL, headers and body, every one of which reaches
/// curl on its standard input only (`CurlConfig`), and what to check if the vendor refuses it.
struct APIRequest: Sendable {
    enum Method: String, Sendable { case get = "GET", post = "POST" }

    /// A request body: form fields (`application/x-www-form-urlencoded`) or JSON bytes.
    enum Body: Sendable {
        case form([(name: String, value: String)])
        case json([UInt8])

        var contentType: String {
            switch self {
            case .form: return "application/x-www-form-urlencoded"
            case .json: return "application/json"
            }
        }

        var text: String {
            switch self {
            case .form(let fields): return fields.map { "\(APIRequest.formEncoded($0.name))=\(APIRequest.formEncoded($0.value))" }.joined(separator: "&")
            case .json(let bytes): return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    var method: Method
    var url: String
    var headers: [(name: String, value: String)]
    var body: Body?
    /// What a 401 or 403 asks the user to check (`googleplay.service_account_file's access in Play Console`, …).
    var credentialCheck: String
    /// The statuses that mean the credentials were refused (a token endpoint answers 400 `invalid_grant`).
    var refusedStatuses: Set<Int>

    init(_ method: Method, _ url: String, headers: [(name: String, value: String)], body: Body? = nil, credentialCheck: String,
                 refusedStatuses: Set<Int> = [401, 403]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.credentialCheck = credentialCheck
        self.refusedStatuses = refusedStatuses
    }

    /// A form value: unreserved characters kept, every other UTF-8 byte as `%XX`.
    static func formEncoded(_ text: String) -> String { URLComponent.encoded(text) }
}

/// RFC 3986 percent-encoding of one URL component (a path segment, a query or form value).
enum URLComponent {
    /// Unreserved characters kept, every other UTF-8 byte as `%XX`: `a/b` or `..` stay one segment.
    static func encoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `base` without trailing slashes, then `path` (which starts with `/`).
    static func join(_ base: String, _ path: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}
