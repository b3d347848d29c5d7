import Foundation
import Synchronization
import Testing
@testable import EntitlementStore
import EntitlementTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The completion cache is read with `pread`, never mapped, so another
/// process truncating it meanwhile cannot crash completion (SIGBUS on a mapped page).
@Suite(.tags(.unit))
struct CompletionCacheReadTests {
    let directory = TemporaryDirectory()

    @Test func readersSurviveATruncatingWriter() throws {
        let header = "entitlement-completion-cache 1\nflat test\n"
        let names = (0..<20_000).map { String(format: "user%05d@example.com", $0) }
        let body = Array(names.map { $0 + "\n" }.joined().utf8)
        let path = directory.path + "/users-test"
        CacheFile.save(header: header, body: body, path: path, in: directory.path)
        let whole = try #require(CacheFile.read(path))
        let expected = CacheFile.lookUp(path: path, header: header, namePrefix: Array("user1999".utf8), limit: 100)
        #expect(expected?.count == 10)

        // Another process's damage, done here by a thread: cut the file short and write it back.
        let stop = StopFlag()
        let writer = WriterThread {
            var random = SplitMix64(seed: 0x7C0)
            let fd = open(path, O_WRONLY)
            defer { close(fd) }
            while !stop.value.load(ordering: .relaxed) {
                _ = ftruncate(fd, off_t(random.next() % UInt64(whole.count)))
                _ = whole.withUnsafeBytes { pwrite(fd, $0.baseAddress!, whole.count, 0) }
            }
        }
        defer { stop.value.store(true, ordering: .relaxed) }
        var answered = 0
        for _ in 0..<3000 {
            // Either the whole, right answer or none (a file cut short is not used); never a crash.
            if let found = CacheFile.lookUp(path: path, header: header, namePrefix: Array("user1999".utf8), limit: 100) {
                #expect(found == expected)
                answered += 1
            }
        }
        stop.value.store(true, ordering: .relaxed)
        writer.join()
    }

    @Test func noMappingOfFilesAnywhere() throws {
        // The rule holds for the whole package: no source maps a file.
        let sources = repositoryRoot + "/Sources"
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            #expect(!text.contains("mmap("), "\(file) maps a file")
        }
    }
}

/// A flag the writer thread polls.
private final class StopFlag: Sendable {
    let value = Atomic(false)
}

/// A plain POSIX thread running `body`, joined by the test.
private final class WriterThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { pointer in
            let me = Unmanaged<WriterThread>.fromOpaque(pointer!).takeRetainedValue()
            me.body()
            return nil
        }, box)
    }

    func join() { pthread_join(thread, nil) }
}
