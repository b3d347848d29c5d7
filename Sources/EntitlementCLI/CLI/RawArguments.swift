import EntitlementBasics
import EntitlementModel

/// Command-line arguments as the kernel gives them: bytes, checked before they become text.
///
/// Swift's `CommandLine.arguments` repairs invalid UTF-8 to U+FFFD, so `$'\xff\xfe'` and
/// `$'\x80\x81'` would both become "��" and name the same customer. Reading the bytes and
/// refusing what is not UTF-8 keeps ids exact.
enum RawArguments {
    /// The arguments as strings, or a usage error naming the first one that is not valid UTF-8.
    static func decode(_ raw: [[UInt8]]) -> Result<[String], EntitlementError> {
        var arguments: [String] = []
        arguments.reserveCapacity(raw.count)
        for (index, bytes) in raw.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(.invalidArgumentEncoding(position: index + 1, escaped: Terminal.escapeBytes(bytes)))
            }
            arguments.append(text)
        }
        return .success(arguments)
    }
}

extension CommandLine {
    /// The process arguments after the program name, as raw bytes.
    package static var rawArguments: [[UInt8]] {
        (1..<Int(argc)).map { index in
            guard let pointer = unsafeArgv[index] else { return [] }
            let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            var count = 0
            while bytes[count] != 0 { count += 1 }
            return Array(UnsafeBufferPointer(start: bytes, count: count))
        }
    }
}
