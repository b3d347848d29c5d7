import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, allocation-light wrappers over the POSIX calls the store needs.
///
/// The store uses these instead of FileManager so that reads cost one open and
/// one read, and so that writes can be made durable (fsync of file and directory).
enum FileSystem {
    static func errorMessage(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(EntitlementError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .io(path: path, message: "cannot open: \(errorMessage())")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(path: path, message: "cannot stat: \(errorMessage())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .io(path: path, message: "not a regular file") }
        var capacity = max(Int(status.st_size), 0) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while true {
            if count == capacity {
                capacity *= 2
                bytes.append(contentsOf: repeatElement(0, count: capacity - bytes.count))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + count, capacity - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, message: "cannot read: \(errorMessage())")
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates a directory (and its parents); fine if it exists.
    static func makeDirectory(_ path: String) throws(EntitlementError) {
        if isDirectory(path) { return }
        let parent = PathName.directory(of: path)
        if parent != path, parent != ".", parent != "/", !isDirectory(parent) { try makeDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || (errno == EEXIST && isDirectory(path)) else {
            throw .io(path: path, message: "cannot create directory: \(errorMessage())")
        }
    }

    /// Replaces `path` atomically: write a temporary file beside it, fsync it,
    /// rename it over `path`, fsync the directory. Readers see old or new, never a mix.
    static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(EntitlementError) {
        let directory = PathName.directory(of: path)
        let base = PathName.base(of: path)
        let temporary = "\(directory)/.\(base).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: temporary, message: "cannot create: \(errorMessage())") }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { buffer -> String? in
            while written < buffer.count {
                let result = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return "cannot write: \(errorMessage())"
                }
                written += result
            }
            if durable, fsync(fd) != 0 { return "cannot fsync: \(errorMessage())" }
            return nil
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw .io(path: temporary, message: failure)
        }
        guard rename(temporary, path) == 0 else {
            let message = errorMessage()
            unlink(temporary)
            throw .io(path: path, message: "cannot rename into place: \(message)")
        }
        if durable { try syncDirectory(directory) }
    }

    /// fsync of a directory, so a rename or a new entry in it survives a crash.
    static func syncDirectory(_ path: String) throws(EntitlementError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, message: "cannot open directory: \(errorMessage())") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .io(path: path, message: "cannot fsync directory: \(errorMessage())") }
    }

    /// Names in a directory, without `.` and `..`.
    static func list(_ path: String) throws(EntitlementError) -> [String] {
        guard let directory = opendir(path) else { throw .io(path: path, message: "cannot list: \(errorMessage())") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

extension FileSystem {
    /// Appends `bytes` to `path` (created if missing), fsynced when `durable`.
    static func append(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(EntitlementError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: path, message: "cannot open: \(errorMessage())") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, message: "cannot write: \(errorMessage())")
            }
            written += result
        }
        if durable, fsync(fd) != 0 { throw .io(path: path, message: "cannot fsync: \(errorMessage())") }
    }

    /// Removes a file; fine if it does not exist.
    static func remove(_ path: String) throws(EntitlementError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .io(path: path, message: "cannot remove: \(errorMessage())") }
    }
}
