import Glibc
import Synchronization

/// The JWS headers whose certificate chain has been verified in this run, by the header
/// segment's bytes as they arrive (base64url, before any decoding): Apple signs every JWS of
/// a period with one chain, so the header of each is the same text, and a header seen before
/// costs a lookup instead of base64 decoding ~4 KB, parsing it and hashing the certificates.
///
/// An entry is added only after the header passed every check that does not depend on the
/// payload (ES256, three certificates, leaf ← intermediate ← a trusted root, Apple's OIDs);
/// the chain's validity window is kept and checked against each payload's date. Bounded:
/// past `capacity` distinct headers it starts again (a run sees a handful).
final class SigningHeaders: Sendable {
    /// What a verified header stands for.
    struct Entry: Sendable {
        /// The decoded header JSON (`VerifiedSignedData.header`).
        let header: [UInt8]
        let chain: ChainVerifier.Verified
    }

    static let capacity = 64
    private let entries = Mutex<[Key: Entry]>([:])

    init() {}

    func entry(for segment: ArraySlice<UInt8>) -> Entry? {
        entries.withLock { $0[Key(segment)] }
    }

    func remember(_ segment: ArraySlice<UInt8>, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[Key(segment)] = entry
        }
    }

    /// Raw bytes hashed as one block (an `Array`'s own hashing takes them one by one).
    private struct Key: Hashable, Sendable {
        let bytes: [UInt8]

        init(_ slice: ArraySlice<UInt8>) { bytes = Array(slice) }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (a: Key, b: Key) -> Bool {
            a.bytes.count == b.bytes.count
                && a.bytes.withUnsafeBytes { x in b.bytes.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
        }
    }
}
