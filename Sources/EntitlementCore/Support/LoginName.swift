#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The login name, the last fallback for `--actor`.
public enum LoginName {
    public static func current() -> String? {
        if let name = getlogin() { return String(cString: name) }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return nil
    }
}
