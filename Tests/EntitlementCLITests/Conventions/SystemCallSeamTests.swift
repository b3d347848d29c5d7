import Foundation
import Testing
import EntitlementTestSupport

/// "Every system call goes through `systemCall` or the store's `FileSystem`" (ARCHITECTURE.md,
/// "System calls"), checked over the source: a call of a listed C function by its bare (or
/// `Glibc.`) name is allowed only as the body of `systemCall`/`systemCallPointer` on the same
/// line, or inside the seam's own files. Calls through a `FileSystem` value (`fileSystem.open(`)
/// are member calls and never match.
@Suite(.tags(.unit))
struct SystemCallSeamTests {
    static let calls: Set<String> = [
        "open", "openat", "close", "read", "pread", "write", "pwrite", "rename", "renameat", "unlink", "unlinkat",
        "fsync", "fdatasync", "syncfs", "mkdir", "rmdir", "kill", "fstat", "fstatat", "stat", "lstat", "readdir",
        "opendir", "fdopendir", "closedir", "ftruncate", "flock", "fcntl", "dup", "dup2", "pipe", "pipe2", "chmod",
        "fchmod", "fchown", "link", "symlink", "readlink", "futimens", "posix_fadvise", "getdents64", "lseek",
    ]
    /// The C calls that take one argument; the others take two or more, which tells them from
    /// Swift methods of the same name (`spool.write(record)` is a member call anyway).
    static let oneArgument: Set<String> = ["close", "closedir", "readdir", "opendir", "fdopendir", "fsync", "fdatasync", "syncfs", "unlink", "rmdir", "dup", "pipe"]

    /// The seam itself, and the two benchmark generators, which are not part of the tool.
    static func isSeam(_ path: String) -> Bool {
        path.hasPrefix("entitlement-bench-")
            || path == "EntitlementBasics/SystemCall.swift"  // systemCall, systemCallPointer, closeDescriptor
            || path == "EntitlementStore/Store/FileSystemSync.swift"  // syncfs over one open folder
            || path.hasPrefix("EntitlementStore/Store/FileSystem") && path.hasSuffix(".swift")  // the closures and their helpers
    }

    /// The raw calls on one line of code (comments cut off).
    static func rawCalls(in line: String) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.hasPrefix("//") else { return [] }
        let code = Array((line.components(separatedBy: " //").first ?? line).utf8)
        var found: [String] = []
        var index = 0
        while index < code.count {
            guard isWordStart(code, index) else { index += 1; continue }
            var end = index
            while end < code.count, isWord(code[end]) { end += 1 }
            var name = String(decoding: code[index..<end], as: UTF8.self)
            let start = index
            index = end
            if name == "Glibc", end < code.count, code[end] == UInt8(ascii: ".") {
                var next = end + 1
                while next < code.count, isWord(code[next]) { next += 1 }
                name = String(decoding: code[(end + 1)..<next], as: UTF8.self)
                index = next
            } else if start > 0, code[start - 1] == UInt8(ascii: ".") {
                continue  // a member call: through a value (`fileSystem.open`)
            }
            guard calls.contains(name), index < code.count, code[index] == UInt8(ascii: "(") else { continue }
            let before = String(decoding: code[..<start], as: UTF8.self)
            if before.hasSuffix("func ") || before.contains("systemCall(") || before.contains("systemCallPointer(") { continue }
            let (count, labelled) = arguments(code, from: index + 1)
            if count == 0 || labelled || count < 2 && !oneArgument.contains(name) { continue }
            found.append(name)
        }
        return found
    }

    @Test func noSystemCallBypassesTheSeam() throws {
        let sources = repositoryRoot + "/Sources"
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        var outside: [String] = []
        for case let file as String in enumerator where file.hasSuffix(".swift") && !Self.isSeam(file) {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            guard text.contains("import Glibc") else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for call in Self.rawCalls(in: String(line)) { outside.append("\(file):\(number + 1): \(call)") }
            }
        }
        #expect(outside.isEmpty, "system calls outside systemCall and FileSystem: \(outside)")
    }

    @Test func theCheckTellsRawCallsFromWrappedOnesAndFromSwiftMethods() {
        #expect(Self.rawCalls(in: "        let fd = open(path, O_RDONLY)") == ["open"])
        #expect(Self.rawCalls(in: "        defer { Glibc.close(fd) }") == ["close"])
        #expect(Self.rawCalls(in: "        return kill(pid, 0) == 0") == ["kill"])
        #expect(Self.rawCalls(in: "        while let entry = readdir(handle) {") == ["readdir"])
        #expect(Self.rawCalls(in: "        try systemCall(\"open\") { open(path, O_RDONLY) }").isEmpty)
        #expect(Self.rawCalls(in: "        try systemCall(\"rename\") { fileSystem.rename(from, to) }").isEmpty)
        #expect(Self.rawCalls(in: "        var status = stat()").isEmpty)
        #expect(Self.rawCalls(in: "        guard let record = try read(name, failed: true) else { return }").isEmpty)
        #expect(Self.rawCalls(in: "    package func write(_ text: String) { write(Array(text.utf8)) }").isEmpty)
        #expect(Self.rawCalls(in: "        // open(path) in a comment").isEmpty)
    }

    private static func isWord(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func isWordStart(_ code: [UInt8], _ index: Int) -> Bool { isWord(code[index]) && (index == 0 || !isWord(code[index - 1])) }

    /// How many arguments the call whose `(` is just before `start` has, and whether one is labelled.
    private static func arguments(_ code: [UInt8], from start: Int) -> (count: Int, labelled: Bool) {
        var depth = 0, count = 0, labelled = false, index = start
        while index < code.count {
            let byte = code[index]
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                if depth == 0 { break }
                depth -= 1
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            }
            if depth == 0, byte != UInt8(ascii: " ") {
                if count == 0 { count = 1 }
                if byte == UInt8(ascii: ",") { count += 1 }
                if byte == UInt8(ascii: ":"), index + 1 < code.count, code[index + 1] == UInt8(ascii: " "), index > 0, isWord(code[index - 1]) { labelled = true }
            }
            index += 1
        }
        return (count, labelled)
    }
}
