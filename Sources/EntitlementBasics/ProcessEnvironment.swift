import Glibc

/// The process environment, read straight from `environ`.
///
/// Cheaper at start-up than `ProcessInfo`, which also sizes up the machine;
/// `check` is called once per user from scripts, so start-up time is the product.
/// Each entry is split at its first `=` byte: finding `"="` as a `Character` instead
/// runs grapheme breaking over every byte, which cost a sixth of a whole `check`.
package enum ProcessEnvironment {
    package static func current() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        // Sized once: growing it entry by entry rehashed every key several times.
        var result = [String: String](minimumCapacity: count)
        var pointer = environ
        while let entry = pointer.pointee {
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                result[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
            }
            pointer += 1
        }
        return result
    }
}
