// entitlement-bench-store: writes a realistic, deterministic synthetic store for
// the benchmarks (scripts/bench.sh), with the tool's own model types and writer.
//
//   entitlement-bench-store --profiles N --out DIR [options]
//
// DIR becomes a store (config.json, profiles/, index/profile-id/) plus three files
// the tool never reads:
//   bench-users.txt     the N generated user ids, one per line, in generation order
//   bench-transactions.tsv  every transaction, one per line, for the SQLite peer
//   bench-peer.json     the same data as one JSON file, for the jq peer
//   bench-manifest.json what was generated; written last, so it marks a complete store
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let generatorVersion = 2
let usage = """
    usage: entitlement-bench-store --profiles N --out DIR [options]

    Generates a synthetic store of N profiles (1 to 30 transactions each, the demo
    fixtures' mix of states) plus one profile with many transactions, deterministically.

    options:
      --profiles N            profiles to generate (default 1000)
      --out DIR               the store directory (default bench/store-N)
      --seed S                PRNG seed (default 20260115)
      --heavy-user ID         user id of the extra, heavy profile (default heavy-user)
      --heavy-transactions N  its transactions (default 10000; 0 for none)
      --chain-user ID         user id of the long-chain profile (default long-chain)
      --chain-renewals N      one subscription renewed N times, 5-minute periods (default 0: none)
      --jobs N                worker threads (default: number of CPUs)
      --peer, --no-peer       write bench-peer.json (default: only up to 200,000 profiles)
      --store-writer          write profiles with EntitlementStore.saveProfile (slower; same bytes)
      --force                 regenerate even if DIR holds a complete store with these settings

    The reference date is fixed at 2026-01-15T12:00:00Z: no wall clock is read.
    """

struct Options {
    var profiles = 1000
    var out: String?
    var seed: UInt64 = 20_260_115
    var heavyUser = "heavy-user"
    var heavyTransactions = 10_000
    var chainUser = "long-chain"
    var chainRenewals = 0
    var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    var peer: Bool?
    var storeWriter = false
    var force = false

    var wantsPeer: Bool { peer ?? (profiles <= 200_000) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("entitlement-bench-store: \(message)\n".utf8))
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(_ name: String) -> String {
        guard let value = iterator.next() else { fail("\(name) needs a value") }
        return value
    }
    func number(_ name: String) -> Int {
        let text = value(name)
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= 0 else { fail("invalid \(name): '\(text)'") }
        return number
    }
    while let argument = iterator.next() {
        switch argument {
        case "--profiles": options.profiles = number(argument)
        case "--out": options.out = value(argument)
        case "--seed": options.seed = UInt64(number(argument))
        case "--heavy-user": options.heavyUser = value(argument)
        case "--heavy-transactions": options.heavyTransactions = number(argument)
        case "--chain-user": options.chainUser = value(argument)
        case "--chain-renewals": options.chainRenewals = number(argument)
        case "--jobs": options.jobs = max(1, number(argument))
        case "--peer": options.peer = true
        case "--no-peer": options.peer = false
        case "--store-writer": options.storeWriter = true
        case "--force": options.force = true
        case "-h", "--help": print(usage); exit(0)
        default: fail("unknown argument '\(argument)'\n\(usage)")
        }
    }
    guard !options.heavyUser.isEmpty, !options.heavyUser.contains("\n") else { fail("invalid --heavy-user") }
    return options
}

// MARK: Files

/// Writes a whole file (not atomically and not fsynced: a benchmark store is scratch).
func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fail("cannot create \(path): \(String(cString: strerror(errno)))") }
    var written = 0
    bytes.withUnsafeBytes { buffer in
        while written < buffer.count {
            let result = write(fd, buffer.baseAddress! + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                fail("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }
    close(fd)
}

/// An append-only file with a large buffer, for the users list and the peer file.
final class StreamFile {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(_ path: String) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { fail("cannot create \(path): \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(1 << 20)
    }

    func write<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    func write(_ text: String) { write(text.utf8) }

    func flush() {
        var written = 0
        buffer.withUnsafeBytes { raw in
            while written < raw.count {
                let result = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    fail("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        _ = Glibc.close(fd)
    }
}

func makeDirectory(_ path: String) {
    do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        fail("cannot create directory \(path): \(error)")
    }
}

func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

// MARK: Generation

/// Per-index results of one batch, filled by the workers (each index by one worker).
struct BatchSlots: @unchecked Sendable {
    let peer: UnsafeMutableBufferPointer<[UInt8]>
    let rows: UnsafeMutableBufferPointer<[UInt8]>
    let users: UnsafeMutableBufferPointer<String>
    let archetypes: UnsafeMutableBufferPointer<Archetype?>
    let transactions: UnsafeMutableBufferPointer<Int>
    let bytes: UnsafeMutableBufferPointer<Int>

    init(capacity: Int) {
        peer = .allocate(capacity: capacity)
        peer.initialize(repeating: [])
        rows = .allocate(capacity: capacity)
        rows.initialize(repeating: [])
        users = .allocate(capacity: capacity)
        users.initialize(repeating: "")
        archetypes = .allocate(capacity: capacity)
        archetypes.initialize(repeating: nil)
        transactions = .allocate(capacity: capacity)
        transactions.initialize(repeating: 0)
        bytes = .allocate(capacity: capacity)
        bytes.initialize(repeating: 0)
    }
}

/// Writes one profile into the store the way `saveProfile` would, and returns
/// its compact peer entry (`"user id":{…}`) and its file size.
func emit(_ profile: Profile, store: EntitlementStore, options: Options, peer: Bool) -> (peer: [UInt8], bytes: Int) {
    let document = profile.json
    var size = 0
    if options.storeWriter {
        do {
            try store.saveProfile(profile)
        } catch {
            fail("cannot save \(profile.customerUserID): \(error.description)")
        }
        size = JSONWriter().bytes(document).count
    } else {
        let bytes = JSONWriter().bytes(document)
        size = bytes.count
        writeFile(store.profilePath(for: profile.customerUserID), bytes)
        if let profileID = profile.profileID {
            writeFile("\(store.root)/\(EntitlementStore.profileIDIndexDirectory)/\(ProfileFileName.name(for: profileID))",
                      Array(profile.customerUserID.utf8))
        }
    }
    guard peer else { return ([], size) }
    let compact = JSONWriter(style: .compact)
    var entry = compact.bytes(.string(profile.customerUserID))
    entry.append(UInt8(ascii: ":"))
    entry.append(contentsOf: compact.bytes(document))
    return (entry, size)
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let root = options.out ?? "bench/store-\(options.profiles)"
let reference = ISODate.parse("2026-01-15T12:00:00Z")!
let manifestPath = "\(root)/bench-manifest.json"
let usersPath = "\(root)/bench-users.txt"
let peerPath = "\(root)/bench-peer.json"
let rowsPath = "\(root)/bench-transactions.tsv"

/// True when `root` already holds a complete store generated with these settings.
func isComplete() -> Bool {
    guard let data = FileManager.default.contents(atPath: manifestPath),
          case .object(let manifest)? = try? JSONParser.parse(Array(data)) else { return false }
    func int(_ key: String) -> Int? { manifest[key]?.doubleValue.map { Int($0) } }
    guard int("generator_version") == generatorVersion, int("profiles") == options.profiles,
          manifest["seed"] == .number(String(options.seed)), manifest["heavy_user"] == .string(options.heavyUser),
          int("heavy_transactions") == options.heavyTransactions, int("chain_renewals") ?? 0 == options.chainRenewals else { return false }
    if options.wantsPeer, manifest["peer_file"] == .null || !FileManager.default.fileExists(atPath: peerPath) { return false }
    return FileManager.default.fileExists(atPath: usersPath) && FileManager.default.fileExists(atPath: rowsPath)
}

if !options.force, isComplete() {
    print("\(root): complete store of \(options.profiles) profiles already there (use --force to regenerate)")
    exit(0)
}

let started = monotonicSeconds()
unlink(manifestPath)  // an interrupted run must not look complete
if !options.wantsPeer { unlink(peerPath) }
makeDirectory("\(root)/\(EntitlementStore.profilesDirectory)")
makeDirectory("\(root)/\(EntitlementStore.profileIDIndexDirectory)")
let store: EntitlementStore = {
    var store = EntitlementStore(root: root)
    store.durable = false
    return store
}()
let configuration = Catalog.configuration
do {
    try store.saveConfiguration(configuration)
} catch {
    fail(error.description)
}

let factory = ProfileFactory(seed: options.seed, reference: reference)
let users = StreamFile(usersPath)
let rows = StreamFile(rowsPath)
let peer: StreamFile? = options.wantsPeer ? StreamFile(peerPath) : nil
if let peer {
    // The product configuration as entitlement → products, then every profile by user id.
    let mapping = JSONObject(configuration.entitlements.map { ($0.id, JSONValue.array($0.products.map(JSONValue.string))) })
    let header = JSONObject([
        ("schema_version", .int(1)),
        ("reference_date", .string(ISODate.format(reference))),
        ("entitlements", .object(mapping)),
    ])
    var bytes = JSONWriter(style: .compact, sortKeys: false).bytes(.object(header))
    bytes.removeLast()  // the closing brace: the profiles follow
    peer.write(bytes)
    peer.write(",\"profiles\":{")
}

var totalTransactions = 0
var totalBytes = 0
var archetypeCounts: [Archetype: Int] = [:]
var samples: [Archetype: String] = [:]
var peerEntries = 0
let batchSize = 8192
let slots = BatchSlots(capacity: batchSize)
var reported = 0

for batchStart in stride(from: 0, to: options.profiles, by: batchSize) {
    let batchEnd = min(options.profiles, batchStart + batchSize)
    let wantsPeer = peer != nil
    DispatchQueue.concurrentPerform(iterations: options.jobs) { worker in
        for index in stride(from: batchStart + worker, to: batchEnd, by: options.jobs) {
            let generated = factory.profile(at: index)
            let slot = index - batchStart
            let (entry, size) = emit(generated.profile, store: store, options: options, peer: wantsPeer)
            slots.peer[slot] = entry
            slots.rows[slot] = PeerRows.rows(of: generated.profile)
            slots.users[slot] = generated.profile.customerUserID
            slots.archetypes[slot] = generated.archetype
            slots.transactions[slot] = generated.profile.transactions.count
            slots.bytes[slot] = size
        }
    }
    for slot in 0..<(batchEnd - batchStart) {
        users.write(slots.users[slot].utf8)
        users.write(CollectionOfOne(UInt8(ascii: "\n")))
        rows.write(slots.rows[slot])
        if let peer {
            if peerEntries > 0 { peer.write(CollectionOfOne(UInt8(ascii: ","))) }
            peer.write(slots.peer[slot])
            peerEntries += 1
        }
        if let archetype = slots.archetypes[slot] {
            archetypeCounts[archetype, default: 0] += 1
            if samples[archetype] == nil { samples[archetype] = slots.users[slot] }
        }
        totalTransactions += slots.transactions[slot]
        totalBytes += slots.bytes[slot]
    }
    if batchEnd - reported >= 100_000 || batchEnd == options.profiles {
        reported = batchEnd
        let elapsed = monotonicSeconds() - started
        FileHandle.standardError.write(Data(String(format: "  %d/%d profiles (%.1f s)\n", batchEnd, options.profiles, elapsed).utf8))
    }
}
users.close()

if options.heavyTransactions > 0 {
    let heavy = factory.heavyProfile(userID: options.heavyUser, transactions: options.heavyTransactions)
    let (entry, size) = emit(heavy, store: store, options: options, peer: peer != nil)
    if let peer {
        if peerEntries > 0 { peer.write(CollectionOfOne(UInt8(ascii: ","))) }
        peer.write(entry)
    }
    rows.write(PeerRows.rows(of: heavy))
    totalTransactions += heavy.transactions.count
    totalBytes += size
}
var chain: LongChain?
if options.chainRenewals > 0 {
    let long = LongChain(userID: options.chainUser, count: options.chainRenewals, factory: factory)
    let (entry, size) = emit(long.profile, store: store, options: options, peer: peer != nil)
    if let peer {
        if peerEntries > 0 || options.heavyTransactions > 0 { peer.write(CollectionOfOne(UInt8(ascii: ","))) }
        peer.write(entry)
    }
    rows.write(PeerRows.rows(of: long.profile))
    totalTransactions += long.profile.transactions.count
    totalBytes += size
    chain = long
}
rows.close()
if let peer {
    peer.write("}}\n")
    peer.close()
}

let elapsed = monotonicSeconds() - started
let manifest = JSONObject([
    ("generator_version", .int(generatorVersion)),
    ("profiles", .int(options.profiles)),
    ("seed", .number(String(options.seed))),
    ("reference_date", .string(ISODate.format(reference))),
    ("heavy_user", .string(options.heavyUser)),
    ("heavy_transactions", .int(options.heavyTransactions)),
    ("users_file", .string("bench-users.txt")),
    ("transactions_file", .string("bench-transactions.tsv")),
    ("transaction_columns", .array(PeerRows.columns.map(JSONValue.string))),
    ("peer_file", options.wantsPeer ? .string("bench-peer.json") : .null),
    ("transactions", .int(totalTransactions)),
    ("profile_bytes", .int(totalBytes)),
    ("archetypes", .object(JSONObject(Archetype.allCases.map { ($0.rawValue, JSONValue.int(archetypeCounts[$0] ?? 0)) }))),
    ("chain_user", chain == nil ? .null : .string(options.chainUser)),
    ("chain_renewals", .int(options.chainRenewals)),
    ("chain_middle_at", .string(chain.map { ISODate.format($0.middle) })),
    ("chain_end_at", .string(chain.map { ISODate.format($0.end) })),
    ("sample_users", .object(JSONObject(Archetype.allCases.compactMap { archetype in samples[archetype].map { (archetype.rawValue, JSONValue.string($0)) } }))),
])
writeFile(manifestPath, JSONWriter(sortKeys: false).bytes(.object(manifest)))
let heavyNote = (options.heavyTransactions > 0 ? " + \(options.heavyUser)" : "") + (options.chainRenewals > 0 ? " + \(options.chainUser)" : "")
print("\(root): \(options.profiles) profiles\(heavyNote), \(totalTransactions) transactions, in \(String(format: "%.1f", elapsed)) s")
