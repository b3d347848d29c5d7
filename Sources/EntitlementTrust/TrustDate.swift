import Glibc
// `struct tm`: a release build finds it through OpenSSL's headers (a clang module merges the
// definitions), and the member-import check then asks for that module too.
import COpenSSL

/// Unix seconds as `2042-04-12T00:00:00Z`, for messages (the module has no date formatter of its own).
enum TrustDate {
    static func iso(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(seconds)" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
