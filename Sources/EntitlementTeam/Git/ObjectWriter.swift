import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Writes git objects straight into `.git/objects`: a few as loose objects, many as one pack.
///
/// A commit then costs no process per file or directory. Objects are collected with `add`
/// and written together by `flush`. A handful (a grant: a blob and the trees above it) are
/// loose objects, zlib streams of stored (uncompressed) blocks, which every git reads: every
/// file is written first, then all are fsynced, renamed into place, and their folders
/// fsynced, so they cost about one journal flush of the file system, not one per object.
/// From `packFromObjects` on (an `ingest` batch of 500 events writes about 4,000) they go
/// into one pack and its index instead (`PackFile`): two files written and fsynced rather
/// than a file per object. `git gc` packs and recompresses both kinds later.
struct ObjectWriter {
    /// The fewest objects written as a pack rather than loose.
    static let packFromObjects = 64

    let objectsDirectory: String
    var durable = true
    private var pending: [Pending] = []
    /// The ids in `pending`: a bulk grant adds tens of thousands of objects, and a scan of
    /// the list per object made `grant --stdin` quadratic.
    private var pendingIDs: Set<String> = []
    /// Pending entries examined by `add`'s duplicate check, for the counted-work test:
    /// one per call whatever the batch's size.
    private(set) var examined = 0

    /// An object to write: its id (hex and bytes), its type, and its bytes with git's
    /// `type size\0` header (a loose object) of `headerCount` bytes (left out in a pack).
    struct Pending {
        var id: String
        var digest: [UInt8]
        var type: String
        var raw: [UInt8]
        var headerCount: Int
    }

    init(objectsDirectory: String, durable: Bool = true) {
        self.objectsDirectory = objectsDirectory
        self.durable = durable
    }

    /// Notes an object of `type` with `content` to write (unless it exists); returns its id.
    @discardableResult
    mutating func add(type: String, content: [UInt8]) -> String {
        let header = Array("\(type) \(content.count)\0".utf8)
        let raw = header + content
        let digest = SHA1.digest(raw)
        let id = SHA1.hex(digest)
        examined += 1
        if !pendingIDs.contains(id), !GitFiles.exists(path(of: id)) {
            pending.append(Pending(id: id, digest: digest, type: type, raw: raw, headerCount: header.count))
            pendingIDs.insert(id)
        }
        return id
    }

    /// Writes every object added since the last flush, durably when `durable`.
    mutating func flush() throws(EntitlementError) {
        let objects = pending
        pending = []
        pendingIDs = []
        guard !objects.isEmpty else { return }
        if objects.count >= Self.packFromObjects { return try Self.writePack(objects, in: objectsDirectory, durable: durable) }
        let fileSystem = GitFiles.system
        var staged: [(from: String, to: String)] = []
        do throws(EntitlementError) {
            for object in objects {
                let target = path(of: object.id), directory = PathName.directory(of: target)
                if GitFiles.exists(target) { continue }
                try GitFiles.makeDirectory(directory)
                // Read-only, as git makes its objects; staged under a name `git fsck` ignores and a
                // killed commit's recovery removes (GitStaleFiles).
                staged.append((try fileSystem.stage(Self.zlibStored(object.raw), replacing: target, in: directory, newFileMode: 0o444,
                                                    durable: false, prefix: GitStaleFiles.objectStagingPrefix), target))
            }
            if durable { for file in staged { try Self.fsyncFile(file.from, fileSystem) } }
        } catch {
            for file in staged { _ = fileSystem.unlink(file.from) }
            throw error
        }
        var directories: [String] = []
        var seenDirectories: Set<String> = []
        for (index, file) in staged.enumerated() {
            do {
                try fileSystem.install(file.from, as: file.to, durable: false)
            } catch {
                // No stray temporary files among git's objects (`git fsck` would call them garbage).
                for rest in staged[(index + 1)...] { _ = fileSystem.unlink(rest.from) }
                throw error
            }
            let directory = PathName.directory(of: file.to)
            if seenDirectories.insert(directory).inserted { directories.append(directory) }
        }
        if durable { for directory in directories { try fileSystem.syncDirectory(directory) } }
    }

    func path(of id: String) -> String { "\(objectsDirectory)/\(id.prefix(2))/\(id.dropFirst(2))" }

    private static func fsyncFile(_ path: String, _ fileSystem: FileSystem) throws(EntitlementError) {
        do throws(SystemError) {
            let fd = try systemCall("open") { fileSystem.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) }
            defer { fileSystem.closeQuietly(fd) }
            try systemCall("fsync") { fileSystem.fsync(fd) }
        } catch {
            throw .io(path: path, message: "cannot fsync: \(error.message)")
        }
    }

    /// A zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951, 3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out.append(final)
            out.append(UInt8(length & 0xFF)); out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF)); out.append(UInt8((~length >> 8) & 0xFF))
            out.append(contentsOf: data[offset..<(offset + length)])
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: adler >> UInt32(shift))) }
        return out
    }
}
