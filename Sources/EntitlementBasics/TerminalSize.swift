import Glibc

/// The size of the terminal behind a file descriptor, for the executable to put into `Context`.
package enum TerminalSize {
    /// Columns of the terminal on `fileDescriptor` (ioctl TIOCGWINSZ), or nil when it is not a
    /// terminal or reports no size.
    package static func columns(of fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
