import Glibc
import EntitlementBasics
import EntitlementModel

/// A key file the secrets file names (`googleplay.service_account_file`,
/// `appstore.private_key_file`): held to the secrets file's own rule, a regular file (not a
/// link) of this user with no group or other permission bits, else exit 2 naming it.
/// Checked on the open descriptor it is read from, so nothing can swap it in between.
enum KeyFile {
    /// No key file of any vendor is larger.
    static let maximumBytes = 1 << 20

    /// The bytes of the file at `path`, named in messages as `key`.
    static func read(_ path: String, key: String) throws(EntitlementError) -> [UInt8] {
        func refused(_ why: String) -> EntitlementError { .vendorAPI(.keyFile(key: key, path: path, why: why)) }
        guard path.hasPrefix("/") else { throw refused("it is not an absolute path") }
        let fd: Int32
        do {
            fd = try systemCall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        } catch {
            if error.code == ELOOP { throw refused("it is a symbolic link") }
            throw refused("cannot open it: \(error.message)")
        }
        defer { closeDescriptor(fd) }
        var status = stat()
        do { try systemCall("fstat") { fstat(fd, &status) } } catch { throw refused("cannot stat it: \(error.message)") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refused("it is not a regular file") }
        guard status.st_uid == geteuid() else { throw refused("it is not owned by this user (uid \(geteuid()))") }
        guard status.st_mode & 0o077 == 0 else {
            throw refused("it has mode 0\(String(status.st_mode & 0o777, radix: 8)); group or others may use it (chmod 600)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let outcome = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try systemCall("read") { Glibc.read(fd, buffer.baseAddress!, buffer.count) } }
            }
            let count: Int
            switch outcome {
            case .success(let read): count = read
            case .failure(let error): throw refused("cannot read it: \(error.message)")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= maximumBytes else { throw refused("it is larger than 1 MiB; no key file is") }
        }
        return bytes
    }
}
