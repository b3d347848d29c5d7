#if !FUZZING
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementTeam
@testable import EntitlementIngest
@testable import EntitlementCLI
import EntitlementTestSupport
#endif
import FoundationEssentials

/// The properties the fuzz harnesses check. Compiled into the tests (which replay every
/// committed input under Fuzz/) and, by scripts/fuzz.sh, into one libFuzzer binary
/// together with the library's sources. Each returns nil, or what went wrong. The `profile`
/// harness is the store's own (Tests/EntitlementStoreTests/ProfileDecoder/ProfileFuzzTarget.swift).
enum FuzzTargets {
    static let all: [(name: String, check: @Sendable ([UInt8]) -> String?)] = core + vendors

    static let core: [(name: String, check: @Sendable ([UInt8]) -> String?)] = [
        ("json", { json($0) }), ("dates", { dates($0) }), ("import", { importDocument($0) }), ("splitter", { splitter($0) }),
        ("jws", { jws($0) }),
    ]

    static func named(_ name: String) -> (@Sendable ([UInt8]) -> String?)? { all.first { $0.name == name }?.check }

    /// Parse, write, parse again: the same tree; writing is stable. The validator that
    /// `find` runs on ruled-out files accepts nothing the parser refuses.
    static func json(_ bytes: [UInt8]) -> String? {
        var validator = JSONValidator()
        if bytes.withUnsafeBytes({ validator.isWellFormedObject($0) }) {
            guard case .object? = try? JSONParser.parse(bytes) else { return "the validator accepted what the parser refuses" }
        }
        for trailing in [false, true] {
            guard let value = try? JSONParser.parse(bytes, allowTrailingCommas: trailing) else { continue }
            for writer in [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)] {
                let written = writer.bytes(value)
                guard let again = try? JSONParser.parse(written) else { return "written JSON does not parse" }
                guard again == value else { return "round trip changed the value" }
                guard writer.bytes(again) == written else { return "writing is not stable" }
            }
        }
        return nil
    }

    /// ISO dates round-trip; vendor date fields and grant durations never crash.
    static func dates(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if let date = ISODate.parse(text) {
            let formatted = ISODate.format(date)
            guard let again = ISODate.parse(formatted) else { return "formatted date \(formatted) does not parse" }
            guard ISODate.format(again) == formatted else { return "date formatting is not stable" }
        }
        _ = GrantDuration.parse(text)
        var fields: [(String, JSONValue)] = [("text", .string(text))]
        if (try? JSONParser.parse(bytes)).map({ if case .number = $0 { return true } else { return false } }) == true {
            let trimmed = bytes.drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) }.reversed().drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) }.reversed()
            fields.append(("number", .number(String(decoding: Array(trimmed), as: UTF8.self))))
        }
        let reader = FieldReader(JSONObject(fields))
        for key in ["text", "number"] {
            _ = try? reader.vendorISODate(key)
            _ = try? reader.vendorEpochMilliseconds(key)
            _ = try? reader.vendorEpochSeconds(key)
        }
        return nil
    }

    /// Any document, in any format the detector picks: an error or a document, never a crash.
    static func importDocument(_ bytes: [UInt8]) -> String? {
        _ = try? DocumentMapper.map(bytes, file: "fuzz.json", format: nil, jws: .decodeOnly)
        return nil
    }

    /// Verifiers over Apple's root: strict, and accepting Xcode data (which skips the signature
    /// and so lets the fuzzer reach the identity checks). One each, so the chain cache is used.
    static let verifiers: [AppStoreSignedDataVerifier] = [
        try! AppStoreSignedDataVerifier(bundleID: "com.example", fallbackDate: 1_767_225_600),
        try! AppStoreSignedDataVerifier(bundleID: "com.example", appAppleID: 1234, allowXcode: true, fallbackDate: 1_767_225_600),
    ]

    /// The signed-data front end (docs/security.md): JWS framing, base64, header and payload
    /// JSON, DER and PEM certificate parsing and chain building never crash or hang; and
    /// whatever the verifier accepts, import's JWS shape test accepts too (else import would
    /// skip verified data as "not a JWS").
    static func jws(_ bytes: [UInt8]) -> String? {
        _ = try? AppStoreSignedDataVerifier(trustRoots: [bytes], includeAppleRoot: false)
        let text = String(decoding: bytes, as: UTF8.self)
        for verifier in verifiers {
            if (try? verifier.verifyDecoded(text)) != nil, !JWS.looksLikeJWS(text) { return "the verifier accepts what import does not see as a JWS" }
        }
        _ = try? JWSReader.decodeOnly.payload(text)
        return nil
    }

    /// Standard input splitters: pieces are non-empty, in order, and cover every non-space
    /// byte; `check --stdin` lines do not depend on how the input is chunked.
    static func splitter(_ bytes: [UInt8]) -> String? {
        let pieces = InputSplitter.split(bytes)
        let nonSpace = bytes.filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        let covered = pieces.flatMap(\.bytes).filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        guard pieces.allSatisfy({ !$0.bytes.isEmpty }) else { return "an empty piece" }
        guard covered == nonSpace || bytes.starts(with: bom) && covered == Array(nonSpace.dropFirst(3)) else { return "pieces lose bytes" }
        var buffer = LineBuffer(keep: 8)
        var lines: [[UInt8]] = []
        var offset = 0, step = 1
        while offset < bytes.count {
            lines += buffer.feed(Array(bytes[offset..<min(offset + step, bytes.count)])).map(Array.init)
            offset += step
            step = step % 7 + 1
        }
        if let last = buffer.finish() { lines.append(Array(last)) }
        var expected = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0.prefix(8)) }
        if expected.last?.isEmpty == true { expected.removeLast() }
        guard lines == expected else { return "lines depend on chunking" }
        guard buffer.bytesExamined == bytes.count else { return "work is not linear" }
        return nil
    }
}
