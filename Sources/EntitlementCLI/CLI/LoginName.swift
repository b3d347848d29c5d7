import Glibc
import EntitlementBasics
import EntitlementStore

/// The login name, the last fallback for `--actor`.
///
/// `$LOGNAME`, then `$USER`, then the name of this user id in `/etc/passwd`. It avoids
/// getpwuid, whose name-service plug-ins a statically linked binary cannot load.
package enum LoginName {
    package static func current(environment: [String: String] = ProcessEnvironment.current()) -> String? {
        for key in ["LOGNAME", "USER"] {
            if let name = environment[key], !name.isEmpty { return name }
        }
        guard let bytes = try? FileSystem.system.readFile("/etc/passwd", policy: .userFile) else { return nil }
        return passwdName(of: geteuid(), in: String(decoding: bytes, as: UTF8.self))
    }

    /// The name on the `/etc/passwd` line whose third field is `uid`.
    static func passwdName(of uid: uid_t, in passwd: String) -> String? {
        for line in passwd.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count > 2, fields[2] == Substring(String(uid)), !fields[0].isEmpty { return String(fields[0]) }
        }
        return nil
    }
}
