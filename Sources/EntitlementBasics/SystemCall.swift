#if canImport(Glibc)
import Glibc
#else
#error("entitlement builds on Linux (Glibc) only; see README, 'Platforms'")
#endif

/// A failed system call: its name and `errno`, read once, right after the call.
@usableFromInline
package struct SystemError: Error, Equatable, Sendable {
    package var call: String
    package var code: Int32

    @usableFromInline
    package init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `strerror` text, for example "No space left on device".
    package var message: String { String(cString: strerror(code)) }
}

/// Makes one system call: retries it while it fails with EINTR, reads `errno` once,
/// and turns a negative result into a `SystemError`. Every system call of the tool
/// goes through here (or `systemCallPointer`), so all behave the same under signals.
@inlinable @discardableResult
package func systemCall<Result: FixedWidthInteger>(_ name: String, _ body: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(call: name, code: code)
    }
}

/// `syscall` for calls that return a pointer and nil on failure (`opendir`).
@inlinable
package func systemCallPointer<Pointer>(_ name: String, _ body: () -> Pointer?) throws(SystemError) -> Pointer {
    while true {
        if let pointer = body() { return pointer }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(call: name, code: code)
    }
}

/// Closes `fd`, ignoring the result: on Linux the descriptor is gone even when `close` fails
/// (EINTR included), so a retry could close another thread's new descriptor of that number.
package func closeDescriptor(_ fd: Int32) { _ = Glibc.close(fd) }
