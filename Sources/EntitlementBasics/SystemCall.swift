#if canImport(Glibc)
import Glibc
#else
#error("entitlement builds on Linux (Glibc) only; see README, 'Platforms'")
#endif

/// A failed system call: its name and `errno`, read once, right after the call.
struct SystemError: Error, Equatable, Sendable {
    var call: String
    var code: Int32

    /// `strerror` text, for example "No space left on device".
    var message: String { String(cString: strerror(code)) }
}

/// Makes one system call: retries it while it fails with EINTR, reads `errno` once,
/// and turns a negative result into a `SystemError`. Every system call of the tool
/// goes through here (or `syscallPointer`), so all behave the same under signals.
@discardableResult
func syscall<Result: FixedWidthInteger>(_ name: String, _ body: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(call: name, code: code)
    }
}

/// `syscall` for calls that return a pointer and nil on failure (`opendir`).
func syscallPointer<Pointer>(_ name: String, _ body: () -> Pointer?) throws(SystemError) -> Pointer {
    while true {
        if let pointer = body() { return pointer }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(call: name, code: code)
    }
}
