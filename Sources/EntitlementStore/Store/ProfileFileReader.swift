import Glibc
import EntitlementBasics
import EntitlementModel

/// Reads the profile files of a store-wide scan, one thread's worth: each file is opened
/// relative to the profiles folder (the kernel does not walk the store's path again per
/// file) and read into one buffer that is reused from file to file, so a file that the
/// prefilter rules out costs no allocation.
///
/// The checks are those of `FileSystem.readFile(_:policy: .storeFile)`: a regular file,
/// never through a symbolic link, a FIFO refused rather than waited on; a file removed
/// since the listing is skipped. Errors name the file's full path.
final class ProfileFileReader {
    /// The profiles folder, opened by `open(_:)`; closed by `close()`.
    let directory: Int32
    /// `profilesPath/`: the paths handed to `read` start with it.
    let prefixLength: Int
    /// The buffer files are read into; grown as needed, kept for the next file.
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// How many bytes of `buffer` the last file filled.
    private var count = 0

    /// The bytes of the last file read, valid until the next read.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[..<count]) }

    deinit { buffer.deallocate() }

    /// Opens the profiles folder of `store`.
    static func openDirectory(_ path: String) throws(EntitlementError) -> Int32 {
        do {
            return try systemCall("open") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        } catch {
            throw .io(path: path, message: "cannot open: \(error.message)")
        }
    }

    static func closeDirectory(_ directory: Int32) { closeDescriptor(directory) }

    /// The profiles folder's path, for messages.
    let directoryPath: String

    init(directory: Int32, directoryPath: String) {
        self.directory = directory
        self.directoryPath = directoryPath
        prefixLength = directoryPath.utf8.count + 1
    }

    /// Reads `path` (inside the folder) into `bytes`; false when it no longer exists.
    func read(_ path: String) throws(EntitlementError) -> Bool {
        let directory = self.directory, prefixLength = self.prefixLength
        var path = path  // `withUTF8` may make the string contiguous
        let opened = Result { () throws(SystemError) -> Int32 in
            try path.withUTF8 { name in Result { () throws(SystemError) in try relativeOpen(directory, name, from: prefixLength) } }.get()
        }
        return try read(opened, path: path)
    }

    /// Reads the file `name` names relative to the folder (`NAME.json`, or `ab/cd/NAME.json`
    /// in the fanout layout), with no full path built; false when it does not exist.
    func read(relative name: String) throws(EntitlementError) -> Bool {
        let directory = self.directory
        var name = name
        let opened = Result { () throws(SystemError) -> Int32 in
            try name.withUTF8 { relative in Result { () throws(SystemError) in try relativeOpen(directory, relative, from: 0) } }.get()
        }
        return try read(opened, path: "\(directoryPath)/\(name)")
    }

    private func read(_ opened: Result<Int32, SystemError>, path: @autoclosure () -> String) throws(EntitlementError) -> Bool {
        let fd: Int32
        switch opened {
        case .success(let value): fd = value
        case .failure(let error):
            if error.code == ENOENT || error.code == ENOTDIR { return false }
            if error.code == ELOOP { throw StorePolicy.symlinkRefused(path()) }
            throw .io(path: path(), message: "cannot open: \(error.message)")
        }
        defer { closeDescriptor(fd) }
        var status = stat()
        do { try systemCall("fstat") { fstat(fd, &status) } } catch { throw .io(path: path(), message: "cannot stat: \(error.message)") }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else { throw StorePolicy.notRegular(path(), kind: kind) }
        try readAll(fd, path: path, sizeHint: Int(status.st_size))
        return true
    }

    /// Reads to the end; one byte more than the size is asked for, so a file that grew is
    /// read whole. A read that returns the whole size and less than was asked for is at the
    /// end (a regular file's reads are short only there), so no second read confirms it.
    private func readAll(_ fd: Int32, path: () -> String, sizeHint: Int) throws(EntitlementError) {
        count = 0
        if buffer.count < sizeHint + 1 { grow(to: sizeHint + 1) }
        while true {
            if count == buffer.count { grow(to: buffer.count * 2) }
            let base = buffer.baseAddress! + count, room = buffer.count - count
            do {
                let got = try systemCall("read") { Glibc.read(fd, base, room) }
                if got == 0 { return }
                count += got
                if got < room, count == sizeHint { return }
            } catch {
                throw .io(path: path(), message: "cannot read: \(error.message)")
            }
        }
    }

    private func grow(to size: Int) {
        let larger = Self.allocate(max(size, buffer.count * 2))
        larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        buffer.deallocate()
        buffer = larger
    }

    /// A transparent huge page: 2 MiB.
    static let hugePage = 2 << 20

    /// Room for a file of `byteCount` bytes. From 2 MiB up (a profile of 10,000 transactions
    /// is 4 MB), whole huge pages, aligned and marked for the kernel (`MADV_HUGEPAGE`): each
    /// 4 KiB page the read first touches costs a fault, a millisecond per 4 MB here, each huge
    /// page one. Where the kernel does not do huge pages, the mark is refused and changes nothing.
    static func allocate(_ byteCount: Int) -> UnsafeMutableRawBufferPointer {
        guard byteCount >= hugePage else { return .allocate(byteCount: byteCount, alignment: 16) }
        let rounded = (byteCount + hugePage - 1) / hugePage * hugePage
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: rounded, alignment: hugePage)
        _ = try? systemCall("madvise") { madvise(buffer.baseAddress!, rounded, MADV_HUGEPAGE) }
        return buffer
    }
}

/// `openat` of the part of `path` after `prefixLength` bytes, NUL-terminated in a stack buffer.
private func relativeOpen(_ directory: Int32, _ path: UnsafeBufferPointer<UInt8>, from prefixLength: Int) throws(SystemError) -> Int32 {
    let length = path.count - prefixLength
    guard length > 0 else { throw SystemError(call: "openat", code: ENOENT) }
    let opened = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { name in
        _ = name.initialize(from: path[prefixLength...])
        name[length] = 0
        return name.withMemoryRebound(to: CChar.self) { name in
            Result { () throws(SystemError) in try systemCall("openat") { openat(directory, name.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) } }
        }
    }
    return try opened.get()
}
