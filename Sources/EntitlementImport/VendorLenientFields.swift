import FoundationEssentials
import EntitlementJSON

/// Liberal reads: fields the status rules do not decide with never make a document fail.
///
/// A value of an unexpected type is left in the raw vendor data (`vendor.<format>`), and
/// the document gets one warning naming the field; the status rules never look at it.
extension FieldReader {
    /// Runs `read`; a wrong value becomes nil and one warning instead of an error.
    func vendorIgnorable<T>(_ key: String, into document: inout ImportDocument,
                            _ read: (FieldReader, String) throws(FieldError) -> T?) -> T? {
        do {
            return try read(self, key)
        } catch {
            document.warnOnce("\(error.description); ignored (kept as written in the vendor data)")
            return nil
        }
    }

    /// An id that some vendor samples spell as a JSON number: the number's own spelling is the id.
    package func vendorIDText(_ key: String) throws(FieldError) -> String? {
        switch value(key) {
        case .number(let text)?: return text
        default: return try vendorNonEmptyString(key)
        }
    }

    /// A number, also when written as a string of one (`"5.99"`).
    package func vendorLenientNumber(_ key: String) throws(FieldError) -> Double? {
        if case .string(let text)? = value(key), let number = Double(text), number.isFinite {
            return number
        }
        return try vendorNumber(key)
    }
}

extension ImportDocument {
    /// Adds `warning` unless the document already has it.
    mutating func warnOnce(_ warning: String) {
        if !warnings.contains(warning) { warnings.append(warning) }
    }
}
