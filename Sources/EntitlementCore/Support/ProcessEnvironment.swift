import Glibc

/// The process environment, read straight from `environ`.
///
/// Cheaper at start-up than `ProcessInfo`, which also sizes up the machine;
/// `check` is called once per user from scripts, so start-up time is the product.
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
