import Foundation
import Glibc
import Synchronization
import EntitlementStore

/// A `FileSystem` over the real one that fails at a chosen step, for fault-injection tests.
///
/// A step is one call that changes or commits something: open, write, fsync, fchmod,
/// fchown, rename, link, unlink, mkdir, chmod, close. Reads and stats are never failed.
package final class FaultyFileSystem: Sendable {
    package enum Fault: Sendable, Equatable {
        /// The step fails with this errno (EIO, ENOSPC); later steps run normally.
        case error(Int32)
        /// The process dies at the step: it and every later call fail, as after SIGKILL.
        case crash
        /// Every write writes at most this many bytes (never an error).
        case shortWrites(Int)
    }

    package struct Call: Sendable, Equatable {
        package var name: String
        package var path: String
    }

    private struct State {
        var steps = 0
        var dead = false
        var fired = false
        var paths: [Int32: String] = [:]
        var calls: [Call] = []
    }

    package let failAt: Int?
    package let fault: Fault
    private let state = Mutex(State())

    package init(failAt: Int? = nil, fault: Fault = .error(EIO)) {
        self.failAt = failAt
        self.fault = fault
    }

    /// Steps taken so far; a run with `failAt: nil` counts the steps of an operation.
    package var steps: Int { state.withLock { $0.steps } }
    /// Whether the fault was injected.
    package var fired: Bool { state.withLock { $0.fired } }
    /// The steps in order, with the path each concerned.
    package var calls: [Call] { state.withLock { $0.calls } }

    /// Counts a step; true when it must fail (errno is then set).
    private func fails(_ name: String, path: String) -> Bool {
        let code: Int32? = state.withLock { state in
            state.steps += 1
            state.calls.append(Call(name: name, path: path))
            if state.dead { return EIO }
            guard state.steps == failAt else { return nil }
            state.fired = true
            switch fault {
            case .error(let code): return code
            case .crash: state.dead = true; return EIO
            case .shortWrites: return nil
            }
        }
        if let code { errno = code; return true }
        return false
    }

    private func path(of fd: Int32) -> String { state.withLock { $0.paths[fd] ?? "fd \(fd)" } }

    package var fileSystem: FileSystem {
        var fs = FileSystem.system
        let real = FileSystem.system
        fs.open = { path, flags, mode in
            let mutating = flags & (O_WRONLY | O_RDWR | O_CREAT) != 0 || flags & O_DIRECTORY != 0
            if mutating, self.fails("open", path: path) { return -1 }
            let fd = real.open(path, flags, mode)
            if fd >= 0 { self.state.withLock { $0.paths[fd] = path } }
            return fd
        }
        fs.write = { fd, buffer, count in
            if self.fails("write", path: self.path(of: fd)) { return -1 }
            if case .shortWrites(let limit) = self.fault { return real.write(fd, buffer, min(count, limit)) }
            return real.write(fd, buffer, count)
        }
        fs.fsync = { fd in self.fails("fsync", path: self.path(of: fd)) ? -1 : real.fsync(fd) }
        fs.fchmod = { fd, mode in self.fails("fchmod", path: self.path(of: fd)) ? -1 : real.fchmod(fd, mode) }
        fs.fchown = { fd, owner, group in self.fails("fchown", path: self.path(of: fd)) ? -1 : real.fchown(fd, owner, group) }
        fs.close = { fd in
            let failed = self.fails("close", path: self.path(of: fd))
            _ = real.close(fd)  // the descriptor is gone either way, as with close(2)
            return failed ? -1 : 0
        }
        fs.rename = { from, to in self.fails("rename", path: to) ? -1 : real.rename(from, to) }
        fs.link = { from, to in self.fails("link", path: to) ? -1 : real.link(from, to) }
        fs.unlink = { path in self.fails("unlink", path: path) ? -1 : real.unlink(path) }
        fs.mkdir = { path, mode in self.fails("mkdir", path: path) ? -1 : real.mkdir(path, mode) }
        fs.chmod = { path, mode in self.fails("chmod", path: path) ? -1 : real.chmod(path, mode) }
        return fs
    }
}
